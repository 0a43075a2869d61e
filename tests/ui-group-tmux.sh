#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Groups on the chat screen in a real terminal: wachat in a detached
# 100x30 tmux pane against wachat-sim, linked as alice, in a LID group the
# sim makes with three simulated members.  The group shows in the list by
# its subject; a member's message shows in the list after the member's
# name and in the pane under it, a mention of another member by name;
# what alice types reaches every member's phone; Alt-g shows the group's
# info (subject, members, the creator); Alt-d asks before leaving, n
# stays, y leaves: the server no longer lists alice and the screen says
# she is no longer a member; Ctrl-q quits with status 0.  TAP.  Every
# wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
S1=15559000001
S2=15559000002
S3=15559000003

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"

link_and_connect

# The sim makes a group of alice and three new simulated contacts.
ctl group-create "Hikers ⛰" --lid $A sim:3 >"$tmp/g.json" 2>&1
G=$(sed -n 's/.*"jid":"\([0-9]*@g\.us\)".*/\1/p' "$tmp/g.json" | head -n 1)
check "the sim makes the group" [ -n "$G" ]
check "the group shows in the list by its subject" wait_pane 'Hikers ⛰'
failed_now && { show; diag "$tmp/g.json"; }

# A member writes; another answers, mentioning the first by number.
ctl phone-group-send $S1 "$G" "hello hikers" >"$tmp/send1.json" 2>&1
check "the list shows the member's message after the member's name" \
    wait_pane 'sim 1: hello hikers'
failed_now && { show; diag "$tmp/send1.json"; }

tm send-keys -t wachat Tab
check "Tab opens the group: the message under its sender's name" \
    wait_pane '│ *sim 1 [0-9]{2}:[0-9]{2}'
failed_now && show
ctl phone-group-send $S2 "$G" "@$S1 bring water" >"$tmp/send2.json" 2>&1
check "another member's message under that member's name" \
    wait_pane '│ *sim 2 [0-9]{2}:[0-9]{2}'
check "... its mention of the first member by name" \
    wait_pane '@sim 1 bring water'
failed_now && show

# alice writes: every member's phone reads it.
tm send-keys -t wachat -l 'on my way 🥾'
tm send-keys -t wachat Enter
inbox_has() {
	ctl group-inbox "$1" "$G" 2>/dev/null | grep -q '"text":"on my way 🥾"'
}
check "what alice types reaches the first member's phone" \
    wait_for inbox_has $S1
check "... the second's" wait_for inbox_has $S2
check "... and the third's" wait_for inbox_has $S3
check "... and shows in the pane as hers" wait_pane 'on my way 🥾'
failed_now && show

# "@sim 1" typed: a mention, sent as the member's number.
tm send-keys -t wachat -l '@sim 1 wait for me'
tm send-keys -t wachat Enter
mention_sent() {
	ctl group-inbox $S2 "$G" 2>/dev/null |
	    grep -q "\"text\":\"@$S1 wait for me\""
}
check "@Name typed reaches the phones as a mention of that member" \
    wait_for mention_sent
check "... and shows by name" wait_pane '@sim 1 wait for me'
failed_now && show

# Alt-g: the group's info.
tm send-keys -t wachat M-g
check "Alt-g shows the group's info: its subject" wait_pane 'Hikers ⛰'
check "... its members, by name when known, else by number" \
    wait_panes 'sim 1' 'sim 2' "\\+$S3"
check "... alice herself among them, as You with her name, the creator" \
    wait_pane "You +alice +creator"
failed_now && show
# Adding a number that is not on WhatsApp: said in words, for a while.
tm send-keys -t wachat a
input_read
tm send-keys -t wachat -l '+1 555 999 9999'
tm send-keys -t wachat Enter
check "a number not on WhatsApp is refused in words on the status line" \
    wait_pane 'not on WhatsApp'
check "... and after a few seconds the status line says connected again" \
    wait_pane "^ *connected as .*\\+$A"
failed_now && show
tm send-keys -t wachat Escape
check "Esc closes the info view" wait_gone 'alice +creator'

# Alt-d: leave, after a question.
tm send-keys -t wachat M-d
check "Alt-d asks before leaving" wait_pane '[Ll]eave'
tm send-keys -t wachat n
check "n stays: the question goes" wait_gone 'Leave the group'
input_read
ctl group-info "$G" >"$tmp/gi1.json" 2>&1
check "... the server still lists alice" \
    grep -q "\"pn\":\"$A\"" "$tmp/gi1.json"
tm send-keys -t wachat M-d
wait_pane '[Ll]eave'
tm send-keys -t wachat y
left() {
	ctl group-info "$G" >"$tmp/gi2.json" 2>&1
	! grep -q "\"pn\":\"$A\"" "$tmp/gi2.json"
}
check "y leaves: the server no longer lists alice" wait_for left
check "... and the screen says she is no longer a member" \
    wait_pane 'no longer a member'
failed_now && { show; diag "$tmp/gi2.json"; }

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
