#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 9: a reaction names who sent it.  wachat in a detached
# 100x30 tmux pane against wachat-sim, linked as alice, in the chat of a
# contact with a long name: our 👍 on our message reads "👍 You"; the
# contact's 👍 too "👍 2 You, NAME"; in a 60-column window the name does
# not fit and is counted, "👍 2 You, +1", and at 100 columns named again;
# the contact's 🎉 instead "👍 You  🎉 NAME"; taken back ("" emoji),
# "👍 You" alone; and so again after a restart, from the database.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
BN="Bartholomew Q. Builder-Longname"

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 "$BN" $A >/dev/null 2>&1

start_pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "the contact's message comes in" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "Tab opens the contact's chat" wait_pane "│ *Bartholomew Q\\. .*[0-9]{2}:[0-9]{2}"
failed_now && show
tm send-keys -t wachat -l "react to this"
tm send-keys -t wachat Enter
oid=
our_id() {
	oid=$(ctl phone-inbox $B 2>/dev/null | tr '{' '\n' |
	    sed -n 's/.*"id":"\([^"]*\)".*"text":"react to this".*/\1/p' |
	    head -n 1)
	[ -n "$oid" ]
}
check "the contact's phone has our message" wait_for our_id
input_read

# Ours: Up selects our message, Alt-s 1 sends a thumbs up.
tm send-keys -t wachat Up
check "Up selects our message" wait_pane 'Enter reply'
tm send-keys -t wachat M-s
check "Alt-s asks for the reaction" wait_pane 'React: 1 '
tm send-keys -t wachat 1
check "... 1: the reaction reads 👍 You" wait_pane '│ +👍 You *$'
failed_now && show
tm send-keys -t wachat Escape
input_read

ctl phone-react $B $AJ "$oid" "👍" >/dev/null 2>&1
check "the contact's 👍 too: 👍 2 You, $BN" \
    wait_pane "│ +👍 2 You, $BN *\$"
failed_now && show

tm resize-window -t wachat -x 60 -y 30
check "at 60 columns the name does not fit: 👍 2 You, +1" \
    wait_pane '│ +👍 2 You, \+1 *$'
failed_now && show
tm resize-window -t wachat -x 100 -y 30
check "at 100 columns it is named again" \
    wait_pane "│ +👍 2 You, $BN *\$"
failed_now && show

ctl phone-react $B $AJ "$oid" "🎉" >/dev/null 2>&1
check "the contact's 🎉 instead: 👍 You  🎉 $BN" \
    wait_pane "│ +👍 You  🎉 $BN *\$"
failed_now && show
ctl phone-react $B $AJ "$oid" - >/dev/null 2>&1
check "taken back: 👍 You alone" wait_pane '│ +👍 You *$'
check "... and no 🎉 left" wait_gone '🎉'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

# Started again: the reactions are read from the database, named.  The
# reaction sent meanwhile comes from the offline queue, stamped with the
# server's whole second: a second after the removal, so that it is the
# later one (a live one takes our clock's ms within its second).
sleep 1.1
ctl phone-react $B $AJ "$oid" "🎉" >/dev/null 2>&1
start_pane
check "started again, it connects" wait_pane "connected as .*\\+$A"
tm send-keys -t wachat Tab
check "the chat again: 👍 You  🎉 $BN" \
    wait_pane "│ +👍 You  🎉 $BN *\$"
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
