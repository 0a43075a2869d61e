#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Peek (issue 17 point 14), in a real terminal: wachat in a tmux pane
# against wachat-sim, linked as alice.  Alt-p in bob's chat turns peek on
# (the bar says "peek"): bob's message shown there gets its delivery
# receipt but no read receipt, and his unread count stays.  Kept across a
# restart: bob's chat still peeks.  Alt-p again: the read receipt goes
# and the count with it.  Started with --peek yes, dave's chat peeks too
# until its own Alt-p.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $D 100000000000005 dave $A >/dev/null 2>&1

quit() {
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
	tm kill-server >/dev/null 2>&1
}

start_pane
link_and_connect

b1=$(sent $B "one from bob" "$tmp/s1.json")
check "bob's chat shows" wait_pane 'one from bob +1 *($|│|\|)'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "... and reads it (a read receipt)" wait_for receipt $B "$b1" read
tm send-keys -t wachat M-p
check "Alt-p: the bar says peek" wait_pane '│ *bob +peek'
check "... and the line over the input says what it does" \
    wait_pane 'peek on: reading this chat sends no read receipts'
b2=$(sent $B "two from bob" "$tmp/s2.json")
check "peeking: bob's message shows in the open chat" \
    wait_pane '│ *two from bob'
check "... its delivery receipt went" wait_for receipt $B "$b2" delivery
sleep 3		# UI_VIEW_READ_MS twice over
check "... 3 s on, no read receipt for it" no_read $B "$b2"
check "... and bob's chat still counts it unread" \
    pane_has 'two from bob +1 *($|│|\|)'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
quit

# Kept across a restart.
start_pane
check "restarted, bob's chat is listed, unread" \
    wait_pane 'two from bob +1 *($|│|\|)'
tm send-keys -t wachat Tab
check "Tab opens it, still peeking" wait_pane '│ *bob +peek'
sleep 3
check "... no read receipt after 3 s" no_read $B "$b2"
tm send-keys -t wachat M-p
check "Alt-p again: peek off, the bar says no more" \
    wait_gone '│ *bob +peek'
check "... the read receipt goes" wait_for receipt $B "$b2" read
check "... and the count with it" wait_gone 'two from bob +1 *($|│|\|)'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
quit

# --peek yes: every chat peeks unless its own Alt-p says otherwise (bob's
# is off now).
start_pane --peek yes
check "with --peek yes, wachat starts" wait_pane 'two from bob'
d1=$(sent $D "one from dave" "$tmp/s3.json")
check "dave's chat shows, unread" wait_pane 'one from dave +1 *($|│|\|)'
tm send-keys -t wachat Tab
check "Tab opens dave's chat, peeking by the setting" \
    wait_pane '│ *dave +peek'
sleep 3
check "... no read receipt for dave's message" no_read $D "$d1"
tm send-keys -t wachat Tab
check "bob's chat, turned off before, does not peek" \
    wait_panes '│ *bob [0-9]{2}:[0-9]{2}' 'Enter send'
check "... its bar has no peek" pane_lacks '│ *bob +peek'
failed_now && show
quit
finish_sim_tmux
