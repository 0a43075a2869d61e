#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Mentions offered by name in a real terminal (issue 17, point 4): wachat
# in a detached 100x30 tmux pane against wachat-sim, linked as alice, in a
# group the sim makes with three simulated members (sim 1, sim 2, sim 3).
# "@" and part of a name offers the matching members over the input line
# (and never alice herself); Down chooses the second, Tab puts "@sim 2 "
# in the input line, and what is sent reaches the members' phones as a
# mention of that member's number; Enter puts a name in too; Esc offers
# none for that "@", and Enter then sends the text as typed.  TAP.  Every
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

ctl group-create "Hikers" --lid $A sim:3 >"$tmp/g.json" 2>&1
G=$(sed -n 's/.*"jid":"\([0-9]*@g\.us\)".*/\1/p' "$tmp/g.json" | head -n 1)
check "the sim makes the group" [ -n "$G" ]
check "the group shows in the list" wait_pane 'Hikers'
failed_now && { show; diag "$tmp/g.json"; }
# Each member writes once: wachat learns their names.
for s in $S1 $S2 $S3; do
	ctl phone-group-send $s "$G" "here $s" >/dev/null 2>&1
done
tm send-keys -t wachat Tab
check "Tab opens it" wait_pane '│ Hikers'
check "... the members' messages under their names" \
    wait_panes '│ *sim 1 [0-9]{2}:[0-9]{2}' '│ *sim 2 [0-9]{2}:[0-9]{2}' \
    '│ *sim 3 [0-9]{2}:[0-9]{2}'
failed_now && show

tm send-keys -t wachat -l 'hi @si'
check "'@si' offers the members whose name starts so" \
    wait_panes '│ *sim 1  ' '│ *sim 2  ' '│ *sim 3  '
check "... and says the keys over the input line" \
    wait_pane 'mention: Up/Down choose, Tab or Enter puts the name in'
check "... alice herself is not offered" pane_lacks "│ *\\+$A"
failed_now && show
tm send-keys -t wachat Down
input_read
tm send-keys -t wachat Tab
check "Down then Tab puts the second member's name in" \
    wait_pane '│> hi @sim 2 *$'
check "... the offer is gone" wait_gone 'mention: Up/Down'
failed_now && show
tm send-keys -t wachat -l 'bring water'
tm send-keys -t wachat Enter
sent_to() {
	ctl group-inbox "$1" "$G" 2>/dev/null | grep -q "\"text\":\"$2\""
}
check "Enter sends it: the phones get a mention of sim 2's number" \
    wait_for sent_to $S1 "hi @$S2 bring water"
check "... the pane shows it by name" wait_pane '@sim 2 bring water'
failed_now && show

# Enter puts the first one in; Esc offers none.
tm send-keys -t wachat -l '@sim 3'
check "'@sim 3' offers sim 3 alone" wait_pane '│ *sim 3  '
check "... not sim 1" pane_lacks '│ *sim 1  '
tm send-keys -t wachat Enter
check "Enter puts the name in, with a space, and sends nothing" \
    wait_pane '│> @sim 3 *$'
tm send-keys -t wachat -l 'and @s'
check "a second '@s' offers the members again" \
    wait_pane 'mention: Up/Down choose'
tm send-keys -t wachat Escape
check "Esc: no offer for it" wait_gone 'mention: Up/Down'
input_read
tm send-keys -t wachat Enter
check "... and Enter sends the text as typed" \
    wait_for sent_to $S3 "@$S3 and @s"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && diag "$tmp/w.err"
finish_sim_tmux
