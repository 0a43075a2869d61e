#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: a group's event lines name a known contact by the
# name known when the line is shown, not when it was stored, and say You
# for us.  wachat in a detached 100x30 tmux pane against wachat-sim,
# linked as alice: bob (a contact, not yet named here) makes a group
# with us and a simulated contact: "+BOB created the group"; bob
# writes to us, so his name is known: opened again, the line reads "bob
# created the group"; bob adds carol, whose name we do not know: "bob
# added +NUMBER"; we leave (Alt-d, y): "You left"; started again, all
# from the database, named.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob >/dev/null 2>&1

start_pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl group-create "Trip" --creator $B $A sim:1 >"$tmp/g.json" 2>&1
G=$(sed -n 's/.*"jid":"\([0-9]*@g\.us\)".*/\1/p' "$tmp/g.json" | head -n 1)
check "bob makes the group" [ -n "$G" ]
check "the group shows in the list" wait_pane 'Trip'
failed_now && { show; diag "$tmp/g.json"; }
tm send-keys -t wachat Tab
check "Tab opens it: bob, not named yet, created the group" \
    wait_pane "│ *\\+$B created the group *\$"
failed_now && show

# bob writes to us: his name is known from now on.
ctl phone-send $B $AJ "hi from bob" >/dev/null 2>&1
check "bob's message comes in, under his name" wait_pane 'bob +[0-9]{2}:[0-9]{2}'
failed_now && show
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
failed_now && show
tm send-keys -t wachat Tab
check "Tab again, the group: the stored line names bob as known now" \
    wait_pane '│ *bob created the group *$'
check "... and no longer by number" wait_gone "│ +\\+$B created the group *\$"
failed_now && show

# bob adds a contact we have no name for: by number, bob by name.
ctl contact 15550000005 100000000000005 carol >/dev/null 2>&1
ctl group-add "$G" 15550000005 >"$tmp/add.json" 2>&1
check "bob adds a member: bob added +15550000005" \
    wait_pane '│ *bob added \+15550000005 *$'
failed_now && { show; diag "$tmp/add.json"; }

# We leave: our own line says You.
tm send-keys -t wachat M-d
check "Alt-d asks before leaving" wait_pane '[Ll]eave'
tm send-keys -t wachat y
check "y leaves: You left" wait_pane '│ *You left *$'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

# Started again: the lines are read from the database, named.
start_pane
check "started again, it connects" wait_pane "connected as .*\\+$A"
tm send-keys -t wachat Tab
check "the group again: bob created it, bob added +15550000005, You left" \
    wait_joined_re 'bob created the group.*bob added \+15550000005.*You left'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
