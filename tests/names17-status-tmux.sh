#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: the status line names us.  wachat in a detached
# 100x30 tmux pane against wachat-sim, linked as the account "Alice Tester":
# once the server tells our push name (<notification type="account_sync"
# pushname>) the status line says "connected as Alice Tester
# (+15550000001)", and started again it says so at once, from the name it
# stored: the sim's knob silent_next=login keeps that connection silent
# after <success>, so no account_sync comes and the name can only be the
# one in the database.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need sqlite3

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 "Alice Tester" >/dev/null 2>&1

rm -f "$tmp/status"
start_pane() {
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}
start_pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "linked, the status line names us: connected as Alice Tester (+$A)" \
    wait_pane "^ *connected as Alice Tester \\(\\+$A\\)"
failed_now && show
check "... and the name is stored with the device" \
    sh -c "sqlite3 '$tmp/data/wachat.db' \"SELECT push_name FROM device\" |
    grep -qx 'Alice Tester'"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]

# Started again, the server silent after <success>: the stored name.
ctl knobs silent_next=login >/dev/null 2>&1
rm -f "$tmp/status"
start_pane
check "started again, no account_sync: connected as Alice Tester (+$A)" \
    wait_pane "^ *connected as Alice Tester \\(\\+$A\\)"
failed_now && show
check "... the sim was silent after <success> (no account_sync sent)" \
    grep -q "silent after <success>" "$tmp/sim.log"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
