#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What a fresh user saw cut off or wrong on the chat screen, in a real
# terminal (wachat in a tmux pane against wachat-sim, on the chats
# tests/cli-db-fill18 adds): a prompt wider than the pane wraps onto two
# rows, so its answers show at 80 and 60 columns, in English and German;
# the archived folder's header fits; the picker counts what it lists;
# Alt-* with no chat open asks for a chat; a new chat from the picker goes
# under the pinned ones; the Archived row says how many chats it holds,
# and shows when the last chat is selected in a short pane; in the C
# locale our ticks are ASCII ("v") in the pane and the list, and letters
# past ASCII read "?".  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000020
AJ=$A@s.whatsapp.net
C=15550000003

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000020 me >/dev/null 2>&1
ctl contact $C 100000000000003 carla $A >/dev/null 2>&1

LOC="$tmp/locale"
mkdir -p "$LOC/de/LC_MESSAGES"
msgfmt -o "$LOC/de/LC_MESSAGES/wachat.mo" "${top_srcdir:-.}/po/de.po" \
    2>>"$tmp/w.err"

# pane LANG COLS ROWS: wachat in the pane in locale LANG, COLS x ROWS.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x "$2" -y "$3" \
	    "env -u LANGUAGE LANG=$1 LC_ALL=$1 WACHAT_LOCALEDIR='$LOC' \
	    TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}

quit() {
	tm send-keys -t wachat C-q
	wait_for test -s "$tmp/status" >/dev/null
	tm kill-server >/dev/null 2>&1
	# the server gone before the next pane's starts on its socket
	wait_for sh -c "! tmux -S '$SOCK' has-session 2>/dev/null" >/dev/null
}

# right_has TEXT: the right side's rows (right of the list's rule),
# trimmed and joined by one space, hold TEXT (a text wrapped over rows
# reads whole).
right_has() {
	capture
	python3 -c '
import sys
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    if "\u2502" in line:
        rows.append(line.split("\u2502", 1)[1].strip())
    else:
        rows.append(line.strip())
sys.exit(0 if sys.argv[2] in " ".join(r for r in rows if r) else 1)' \
	    "$tmp/pane" "$1"
}

pane C.UTF-8 100 30
link_and_connect
quit
if ! "$b/tests/cli-db-fill18" marks "$tmp/data" 600 2>"$tmp/fill.err"
then
	echo "Bail out! cli-db-fill18: $(cat "$tmp/fill.err")"
	exit 1
fi

for size in "80 24" "60 20"; do
	set -- $size
	pane C.UTF-8 "$1" "$2"
	check "$1x$2: the chats show" wait_pane 'Carla'
	tm send-keys -t wachat M-'*'
	check "$1x$2: Alt-* with no chat open asks for a chat" \
	    wait_pane 'select a chat first'
	tm send-keys -t wachat Tab
	check "$1x$2: Tab opens Bob" wait_pane '│ *Bob'
	tm send-keys -t wachat M-n
	check "$1x$2: the mute prompt shows all its answers" \
	    wait_for right_has '3 always, 0 unmutes; Esc goes back'
	failed_now && show
	tm send-keys -t wachat Escape
	wait_gone '3 always, 0 unmutes' >/dev/null
	tm send-keys -t wachat M-x
	check "$1x$2: the delete prompt shows both answers" \
	    wait_for right_has 'everywhere? y deletes it, n keeps it'
	failed_now && show
	tm send-keys -t wachat n
	tm send-keys -t wachat M-z
	check "$1x$2: the archived folder's header whole" \
	    wait_pane '^ *Archived, Esc: back *│'
	tm send-keys -t wachat Escape
	# the folder closed before Ctrl-q: an Esc and a key read at once
	# are Alt and that key
	wait_gone '^ *Archived, Esc: back *│' >/dev/null
	quit
done

pane de_DE.UTF-8 80 24
check "German, 80x24: the chats show" wait_pane 'Carla'
tm send-keys -t wachat Tab
check "... Tab opens Bob" wait_pane '│ *Bob'
tm send-keys -t wachat M-n
check "... the mute prompt whole" \
    wait_for right_has '3 immer, 0 wieder laut; Esc zurück'
failed_now && show
tm send-keys -t wachat Escape
wait_gone '3 immer, 0 wieder laut' >/dev/null
tm send-keys -t wachat M-x
check "... the delete prompt whole" wait_for right_has 'j löscht ihn, n behält ihn'
failed_now && show
tm send-keys -t wachat n
tm send-keys -t wachat M-z
check "... the archived folder's header whole" \
    wait_pane '^ *Archiv, Esc: zurück *│'
tm send-keys -t wachat Escape
check "... the Archived row: how many, how many unread" \
    wait_panes '^ *Archiviert: 2 Chats +│' '^ *1 ungelesen +│'
failed_now && show
quit

pane C.UTF-8 100 30
check "the Archived row counts its chats and the unread one" \
    wait_panes '^ *Archived: 2 chats +│' '^ *1 unread +│'
tm send-keys -t wachat C-n
tm send-keys -t wachat -l 'zebra'
check "the picker counts the one person it lists" \
    wait_panes 'Open a chat: 1 chat' '│ +Zoe Zebra +\+15550000009 +\[new chat\]'
tm send-keys -t wachat Enter
check "Enter: the new chat with Zoe under the pinned Bob and Ana" \
    wait_for sh -c "tmux -u -S '$SOCK' capture-pane -p -t wachat |
	awk '/^📌 Bob /{b=NR} /^📌 Ana /{a=NR} /^Zoe Zebra /{z=NR}
	    END {exit !(b && a && z > a && z > b && z <= (a > b ? a : b) + 2)}'"
failed_now && show
quit

# A short pane: the Archived row under the last chat comes into view.
pane C.UTF-8 80 13
check "a short pane: the list" wait_pane 'Bob'
check "... the Archived row below the rows shown" pane_lacks 'Archived:'
for i in 1 2 3 4 5 6; do
	tm send-keys -t wachat Tab
done
check "Tab to the last chat (Finn): the Archived row shows under it" \
    wait_panes 'Finn' '^ *Archived: 2 chats'
failed_now && show
quit

# The C locale (tmux draws the line-drawing rule as 'x' there).
pane C 100 30
check "C locale: the chats show" wait_pane 'Carla'
ctl phone-send $C $AJ "Gr$(printf '\303\274')sse" >"$tmp/s1.json" 2>&1
check "... Carla's letter past ASCII reads ?" wait_pane 'Gr\?sse'
tm send-keys -t wachat Tab Tab Tab
check "... Carla's chat open" wait_pane '[│x] *Carla'
tm send-keys -t wachat -l 'hi carla'
tm send-keys -t wachat Enter
check "... our message's tick in ASCII" wait_pane '[│x] *You [0-9:]+ v'
check "... and in the list's preview" wait_pane 'hi carla +vv? *[│x]'
failed_now && show
quit
finish_sim_tmux
