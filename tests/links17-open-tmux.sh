#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Links and the mouse (issue 17 point 7), in a real terminal: wachat in a
# tmux pane against wachat-sim, linked as alice, with a link-open-command
# that writes the URL it is given to a file, and what wachat writes to
# its terminal captured raw.  Bob's message with two URLs: each is
# written over the pane as an OSC 8 hyperlink; Up then Alt-o opens the
# first, Alt-o again the second.  The mouse, as an xterm reports it
# (ESC [ M and three bytes, which tmux hands to the pane as typed): a
# click on dave's row opens his chat, the wheel over bob's 40 messages
# scrolls back to older ones and down again.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

cat >"$tmp/open.sh" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>'$tmp/opened'
EOF
chmod +x "$tmp/open.sh"
: >"$tmp/opened"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $D 100000000000005 dave $A >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' \
    --link-open-command '$tmp/open.sh' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
tm pipe-pane -o -t wachat "cat >>'$tmp/out'"

link_and_connect

E=$(printf '\033')
# has REGEX: what wachat wrote, its lines joined, matches REGEX.
has() {
	tr -d '\n' <"$tmp/out" | grep -Eq -- "$1"
}
opened() {
	grep -Fxq -- "$1" "$tmp/opened"
}
# click|wheel_up|wheel_down ROW COL: the mouse report an xterm sends
# (X10: ESC [ M, 32 + button, 33 + column, 33 + row).
mouse() {
	tm send-keys -t wachat -H 1b 5b 4d "$(printf %x "$1")" \
	    "$(printf %x $(($3 + 33)))" "$(printf %x $(($2 + 33)))"
}
click() {
	mouse 32 "$1" "$2"
	mouse 35 "$1" "$2"	# the release
}
# row_of REGEX: the pane's row (from 0) of the first line matching it.
row_of() {
	capture
	grep -nE -- "$1" "$tmp/pane" | head -n 1 | cut -d: -f1 |
	    awk '{ print $1 - 1 }'
}

ctl phone-send $D $AJ "hello from dave" >/dev/null 2>&1
check "dave's chat shows" wait_pane 'hello from dave'
sleep 1.1	# bob's chat sorts first
ctl phone-send $B $AJ "see https://example.org/a?b=1 and http://x.test/y." \
    >/dev/null 2>&1
check "bob's chat shows" wait_pane 'see https://example'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "the first URL is written as an OSC 8 hyperlink over its cells" \
    wait_for has "${E}]8;;https://example\\.org/a\\?b=1$E\\\\https://example\\.org/a\\?b=1$E]8;;$E\\\\"
check "... and the second, without the full stop after it" \
    wait_for has "${E}]8;;http://x\\.test/y$E\\\\http://x\\.test/y$E]8;;$E\\\\"
failed_now && { show; od -c "$tmp/out" | grep -n ']   8' | head | sed 's/^/# /'; }

tm send-keys -t wachat Up
check "Up selects the message" wait_pane 'Alt-c copy'
tm send-keys -t wachat M-o
check "Alt-o opens its first link with link-open-command" \
    wait_for opened 'https://example.org/a?b=1'
check "... and says so" wait_pane 'opening https://example\.org/a\?b=1'
tm send-keys -t wachat M-o
check "Alt-o again opens the second" wait_for opened 'http://x.test/y'
failed_now && { show; diag "$tmp/opened"; }
tm send-keys -t wachat Escape
input_read

# The mouse: a click on dave's row in the list.
r=$(row_of '^dave ')
check "dave's row is found in the list (row ${r:-none})" [ -n "$r" ]
[ -n "$r" ] && click "$r" 3
check "a click on it opens dave's chat" wait_pane '│ *dave [0-9]{2}:[0-9]{2}'
failed_now && show

# The wheel: bob sends 40 messages; his chat open, End to the newest.
i=1
while [ $i -le 40 ]; do
	ctl phone-send $B $AJ "$(printf 'bob line %02d' $i)" >/dev/null 2>&1
	i=$((i + 1))
done
r=$(row_of '^bob ')
[ -n "$r" ] && click "$r" 3
check "a click on bob's row opens his chat (at its first unread)" \
    wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
tm send-keys -t wachat End
check "End goes to his newest message" wait_pane '│ +bob line 40$'
failed_now && show
up_to() {
	mouse 96 15 60		# wheel up over the pane
	sleep 0.3
	pane_has "$1"
}
check "the wheel over the pane scrolls back to bob line 20" \
    wait_cmd "$WAIT" up_to '│ +bob line 20$'
check "... bob line 40 scrolled out of view" pane_lacks '│ +bob line 40$'
down_to() {
	mouse 97 15 60		# wheel down
	sleep 0.3
	pane_has "$1"
}
check "the wheel down brings bob line 40 back" \
    wait_cmd "$WAIT" down_to '│ +bob line 40$'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
finish_sim_tmux
