#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: in a group's info we are "You" with our push name,
# not "+NUMBER you".  wachat in a detached 100x30 tmux pane against
# wachat-sim, linked as the account "Alice Tester", in a group the sim
# makes with two simulated members; Alt-g lists the members: ours reads
# "You  Alice Tester  creator", and our number is nowhere in the info
# (the status line has it).
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 "Alice Tester" >/dev/null 2>&1

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects, with our name" \
    wait_pane "connected as Alice Tester \\(\\+$A\\)"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl group-create "Names test" --lid $A sim:2 >"$tmp/g.json" 2>&1
check "the sim's group shows in the list" wait_pane 'Names test'
failed_now && { show; diag "$tmp/g.json"; }
tm send-keys -t wachat Tab
check "Tab opens it" wait_pane '^.*│ *Names test'
tm send-keys -t wachat M-g
check "Alt-g: we are You with our name, the creator" \
    wait_pane "│ *You +Alice Tester +creator"
check "... the other members by number (no name known yet)" \
    wait_panes '│ *\+15559000001 *$' '│ *\+15559000002 *$'
check "... and our number is not in the info (no '+$A you')" \
    sh -c "! grep -Eq '│.*(\\+$A| you *$)' '$tmp/pane'"
failed_now && show
tm send-keys -t wachat Escape
check "Esc closes the info" wait_gone 'Alice Tester +creator'
input_read

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
