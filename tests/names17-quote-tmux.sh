#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 9: a quote names whose message it quotes.  wachat in a
# detached 100x30 tmux pane against wachat-sim, linked as alice, in bob's
# chat: our reply to bob's message shows "> bob: TEXT"; bob's reply to our
# message shows "> You: TEXT"; bob's reply to his own "> bob: TEXT"; and
# so again after a restart, from the database.  TAP.
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
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

start_pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl phone-send $B $AJ "first from bob" >"$tmp/s1.json" 2>&1
bid=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$tmp/s1.json" | head -n 1)
check "bob's message comes in" wait_pane 'first from bob'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
sleep 1.1

# Our reply to bob's message: Up selects it, Enter replies.
tm send-keys -t wachat Up
check "Up selects bob's message" wait_pane 'Enter reply'
tm send-keys -t wachat Enter
check "Enter starts a reply to it" wait_pane 'replying to: first from bob'
tm send-keys -t wachat -l "our answer"
tm send-keys -t wachat Enter
check "our reply shows, quoting bob by name: > bob: first from bob" \
    wait_pane '│ +> bob: first from bob *$'
failed_now && show
our=
our_id() {
	our=$(ctl phone-inbox $B 2>/dev/null | tr '{' '\n' |
	    sed -n 's/.*"id":"\([^"]*\)".*"text":"our answer".*/\1/p' |
	    head -n 1)
	[ -n "$our" ]
}
check "bob's phone has our reply" wait_for our_id
sleep 1.1

# Bob quotes ours, then his own.
ctl phone-send $B $AJ "yes to you" "$our" >/dev/null 2>&1
check "bob's reply to ours shows: > You: our answer" \
    wait_pane '│ +> You: our answer *$'
failed_now && show
sleep 1.1
ctl phone-send $B $AJ "and to me" "$bid" >/dev/null 2>&1
check "bob's reply to his own shows: > bob: first from bob" \
    wait_joined_re 'and to me.*' '> bob: first from bob.*> You: our answer.*> bob: first from bob'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

# Started again: the quotes are read from the database, names and all.
start_pane
check "started again, it connects" wait_pane "connected as .*\\+$A"
tm send-keys -t wachat Tab
check "bob's chat again: > bob: first from bob, > You: our answer" \
    wait_joined_re '> bob: first from bob.*> You: our answer.*> bob: first from bob'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
