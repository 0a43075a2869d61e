#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The chat list as the phone has it (issue 18), in a real terminal:
# wachat in a tmux pane against wachat-sim, linked, then restarted on the
# chats tests/cli-db-fill18 adds (pinned, muted, archived; two people
# with no chat).  Pinned chats come first, the newest pin first, marked;
# muted ones marked, their count dim and not bold, and left out of the
# title's count; a mute that ends while wachat runs ends on the screen
# too.  The archived chats are behind an "Archived: N chats" row (M unread under it); Alt-z opens
# their folder (its header says so), Esc and Alt-z go back.  The chat
# picker finds an archived chat (marked, and opening it shows its folder)
# and people with no chat by address-book name, push name or number
# (opening one starts an empty chat with them).  A message in an
# archived chat leaves it archived, counted in the Archived row.  Then,
# in the C locale on a vt100 (no colour, no dim), the marks in ASCII and
# the muted count still told apart from the bold one.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000020
AJ=$A@s.whatsapp.net
G=15550000007
C=15550000003
MUTE_S=60	# Finn's mute ends this long after the fill

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000020 me >/dev/null 2>&1
ctl contact $G 100000000000007 gina $A >/dev/null 2>&1
ctl contact $C 100000000000003 carla $A >/dev/null 2>&1
cat >"$tmp/notify.sh" <<EOF
#!/bin/sh
printf '%s|%s\n' "\$1" "\$2" >>'$tmp/notified'
EOF
chmod +x "$tmp/notify.sh"
: >"$tmp/notified"

quit() {
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
	tm kill-server >/dev/null 2>&1
}

# notified REGEX: a line the notify-command wrote ("title|body") matches.
notified() {
	grep -Eq -- "$1" "$tmp/notified"
}

title_is() {
	[ "$(tm display-message -p -t wachat '#{pane_title}')" = "$1" ]
}

# list_is NAMES: the chat list's rows name these chats, in this order
# (the first word of each name row, after its marks), then the
# Archived row when NAMES ends with "Archived".
list_is() {
	capture
	[ "$(python3 -c '
import re, sys
names = []
for line in open(sys.argv[1], encoding="utf-8"):
    if "\u2502" not in line:
        continue	# the status and help lines
    left = line.split("\u2502")[0]
    m = re.match(r"^[ \U0001F4CC\U0001F507^~]*([A-Z][a-z]+)( [A-Z][a-z]+)?\b", left)
    if left.strip().startswith(("Chats", "Archived,")):
        continue	# the header
    if m:
        names.append(m.group(1))
print(" ".join(names))' "$tmp/pane")" = "$1" ]
}

# count_attr NAME SGR: the pane's row under chat NAME's (its preview and
# count), with its attributes, ends in its count drawn with SGR code SGR
# (1 bold, 2 dim) and not with the other; SGR 0: with neither.
count_attr() {
	tm capture-pane -e -p -t wachat >"$tmp/pane-e" 2>/dev/null
	python3 -c '
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
name, want = sys.argv[2], sys.argv[3]
other = "1" if want == "2" else "2"
for i, line in enumerate(lines):
    plain = re.sub(r"\x1b\[[0-9;]*m|[\x0e\x0f]", "", line)
    if re.match(r"^[ \U0001F4CC\U0001F507^~]*" + name + r"\b", plain):
        # the list part: before its rule (ACS x on a vt100)
        row = lines[i + 1].split("\u2502")[0]
        row = re.sub(r"x(?:\x1b\[[0-9;]*m)*\s*$", "",
            re.sub(r"[\x0e\x0f]", "", row))	# SO, SI around it
        m = re.search(r"((?:\x1b\[[0-9;]*m)*) ?(\d+) *(?:\x1b\[[0-9;]*m)*\s*$", row)
        if not m:
            sys.exit(1)
        codes = re.findall(r"\x1b\[([0-9;]*)m", m.group(1))
        flat = ";".join(codes).split(";")
        if want == "0":
            sys.exit(0 if "1" not in flat and "2" not in flat else 1)
        sys.exit(0 if want in flat and other not in flat else 1)
sys.exit(1)' "$tmp/pane-e" "$1" "$2"
}

start_pane
link_and_connect
quit
if ! "$b/tests/cli-db-fill18" marks "$tmp/data" $MUTE_S 2>"$tmp/fill.err"
then
	echo "Bail out! cli-db-fill18: $(cat "$tmp/fill.err")"
	exit 1
fi

start_pane --notify-command "$tmp/notify.sh"
check "restarted, the chats show" wait_pane 'Carla'
check "pinned first (Bob's pin newer), then by last message, then the Archived row" \
    wait_for list_is 'Bob Ana Carla Dora Emil Finn Archived'
check "the pinned chats marked, the muted ones too" wait_panes \
    '^ *📌 Bob ' '^ *📌 Ana ' '^ *🔇 Dora ' '^ *🔇 Finn '
check "... not Emil's, whose mute ended an hour ago" pane_has '^ *Emil '
check "Dora's unread count (muted) is dim, not bold" count_attr Dora 2
check "... Ana's (not muted) bold" count_attr Ana 1
check "the title counts Ana, Carla and Emil: not the muted, not the archived" \
    wait_for title_is 'wachat (3)'
check "the Archived row counts Gina's unread chat (Hugo's is read)" \
    pane_has '^ *Archived: 2 chats +│' '^ *1 unread +│'
failed_now && show

# The archived folder.
tm send-keys -t wachat M-z
check "Alt-z: the archived folder, its header saying so" \
    wait_pane '^ *Archived, Esc: back +│'
check "... Gina and Hugo in it, nothing else" wait_for list_is 'Gina Hugo'
check "... Hugo marked muted" pane_has '^ *🔇 Hugo '
tm send-keys -t wachat Escape
check "Esc: back to the chat list" wait_pane '^ *Chats +│'
check "... as it was" wait_for list_is 'Bob Ana Carla Dora Emil Finn Archived'
input_read
tm send-keys -t wachat M-z
check "Alt-z again opens the folder" wait_pane '^ *Archived, Esc'
tm send-keys -t wachat M-z
check "... and Alt-z closes it" wait_pane '^ *Chats +│'
failed_now && show

# The chat picker: an archived chat, people with no chat.
tm send-keys -t wachat C-n
check "Ctrl-n opens the picker" wait_pane 'Open a chat: '
tm send-keys -t wachat -l 'gin'
check "'gin' finds Gina's archived chat, marked" \
    wait_pane '│ +Gina +\+15550000007 +\(2\) +\[archived\]'
tm send-keys -t wachat Enter
check "Enter opens it: its bar, and the list shows the archived folder" \
    wait_panes '│ *Gina( |$)' '^ *Archived, Esc'
check "... opened, it is read: the Archived row's count would be 0" \
    wait_gone 'Gina .*│.*\(2\)'
tm send-keys -t wachat Escape
check "Esc: the chat list again (Gina stays open)" \
    wait_panes '^ *Chats +│' '^ *Archived: 2 chats +│'
input_read
tm send-keys -t wachat C-n
check "the picker again" wait_pane 'Open a chat: '
tm send-keys -t wachat -l 'zebra'
check "'zebra' finds Zoe Zebra, who has no chat, by address-book name" \
    wait_pane '│ +Zoe Zebra +\+15550000009 +\[new chat\]'
tm send-keys -t wachat C-u
tm send-keys -t wachat -l 'quent'
check "'quent' finds Quentin by push name" \
    wait_pane '│ +Quentin +\+15550000010 +\[new chat\]'
tm send-keys -t wachat C-u
tm send-keys -t wachat -l '5550000010'
check "... and by number, offered once (no 'new chat with' row)" \
    wait_pane '│ +Quentin +\+15550000010 +\[new chat\]'
check "... no 'new chat with +15550000010' entry" \
    pane_lacks 'new chat with \+15550000010'
tm send-keys -t wachat C-u
tm send-keys -t wachat -l 'zebra'
check "zebra again" wait_pane '│ +Zoe Zebra +\+15550000009'
tm send-keys -t wachat Enter
check "Enter: a new empty chat with Zoe Zebra, first after the pinned ones" \
    wait_panes '│ *Zoe Zebra( |$)' '^ *Zoe Zebra '
check "... the list: the pinned Bob and Ana, Zoe, then the rest" \
    wait_for list_is 'Bob Ana Zoe Carla Dora Emil Finn Archived'
failed_now && show

# A message in an archived chat keeps it archived.
ctl phone-send $G $AJ "gina again" >"$tmp/s1.json" 2>&1
check "Gina writes: her chat stays archived, the Archived row counts it" \
    wait_panes '^ *Archived: 2 chats +│' '^ *1 unread +│'
check "... not in the main list" \
    wait_for list_is 'Bob Ana Zoe Carla Dora Emil Finn Archived'
ctl phone-send $C $AJ "carla again" >"$tmp/s2.json" 2>&1
check "Carla's message after it notifies" wait_for notified '^Carla\|carla again$'
check "... Gina's, archived, did not" sh -c "! grep -q 'gina again' '$tmp/notified'"
failed_now && show

# Finn's mute ends while wachat runs.
check "Finn's mute ends: no mark" wait_gone '🔇 Finn' $((MUTE_S * 10 + 100))
check "... and the title counts his chat" wait_for title_is 'wachat (4)'
failed_now && show
quit

# ASCII and monochrome.
PANE_LOCALE=C PANE_TERM=vt100 start_pane
check "in the C locale on a vt100, the marks in ASCII" \
    wait_panes '^ *\^ Bob ' '^ *\^ Ana ' '^ *~ Dora '
check "... Dora's muted count not bold" count_attr Dora 0
check "... Ana's bold" count_attr Ana 1
failed_now && show
quit
finish_sim_tmux
