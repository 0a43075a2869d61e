#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The chat picker in a real terminal (issue 17, point 4): wachat in a
# detached 100x30 tmux pane against wachat-sim, linked as alice, with
# unread chats from bob and carol.  Ctrl-n opens the picker listing the
# chats with their numbers; typed letters narrow it (by name or by part of
# a number); Down passes a chat without opening it or sending it a read
# receipt, Enter opens the chosen one only (its phone gets the read
# receipt); a number no chat has offers "new chat with +NUMBER", which
# Enter opens and a message reaches; a name nothing matches says so and
# Esc closes the picker, the open chat as it was.  TAP.  Every wait is
# bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
E=15550000004
C=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $E 100000000000004 Echo $A >/dev/null 2>&1
ctl contact $C 100000000000005 carol $A >/dev/null 2>&1

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"

link_and_connect

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list, unread" wait_pane 'hello from bob +1'
sleep 1.1	# carol's message sorts after bob's
ctl phone-send $C $AJ "hi from carol" >/dev/null 2>&1
check "carol's chat shows in the list, unread" wait_pane 'hi from carol +1'
failed_now && show

# read_by N: N's phone has a read receipt from wachat.
read_by() {
	ctl phone-inbox "$1" 2>/dev/null |
	    grep -q "\"from\":\"$A:1@s.whatsapp.net\",\"type\":\"read\""
}

tm send-keys -t wachat C-n
check "Ctrl-n opens the picker: its title and what to type" \
    wait_panes 'Open a chat: 2 chats' 'Type part of a name or number; Enter opens'
check "... both chats listed with their numbers" \
    wait_panes "carol +\\+$C +\\(1\\)" "bob +\\+$B +\\(1\\)"
failed_now && show
tm send-keys -t wachat -l 'CAR'
check "CAR (case ignored) leaves carol alone" \
    wait_panes 'Open a chat: 1 chat' "carol +\\+$C"
check "... bob is not listed" wait_gone "bob +\\+$B"
failed_now && show
tm send-keys -t wachat BSpace BSpace BSpace
tm send-keys -t wachat -l '0003'
check "part of a number (0003) finds bob" \
    wait_panes 'Open a chat: 1 chat' "bob +\\+$B"
check "... carol is not listed" wait_gone "carol +\\+$C"
tm send-keys -t wachat BSpace BSpace BSpace BSpace
check "the query empty again: both chats" wait_pane 'Open a chat: 2 chats'
# carol is first (newest); Down passes her and chooses bob.
tm send-keys -t wachat Down
input_read
tm send-keys -t wachat Enter
check "Down then Enter opens bob's chat: its message in the pane" \
    wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "... the picker is gone" wait_gone 'Open a chat'
check "... bob's phone gets the read receipt" wait_for read_by $B
failed_now && show
check "carol, only passed in the picker, is still unread in the list" \
    pane_has 'hi from carol +1'
check "... and her phone got no read receipt" eval '! read_by $C'

# A number no chat has: a new chat with it.
tm send-keys -t wachat C-n
tm send-keys -t wachat -l "+1 555 000 0004"
check "a number no chat has offers a new chat with it" \
    wait_pane "new chat with \\+$E"
failed_now && show
tm send-keys -t wachat Enter
check "Enter opens it: the bar names it" wait_pane "│ (\\+$E|Echo)( |$)"
failed_now && show
tm send-keys -t wachat -l "hello echo"
tm send-keys -t wachat Enter
check "a message typed there reaches Echo, who answers" \
    wait_pane 'echo: hello echo'
failed_now && show

# Nothing matches: said, and Esc goes back to the open chat.
tm send-keys -t wachat C-n
tm send-keys -t wachat -l 'zzz'
check "a name no chat has: the picker says so" \
    wait_pane 'no chat has that name'
tm send-keys -t wachat Enter
check "... Enter says what to type" \
    wait_pane 'type part of a name or a phone number'
tm send-keys -t wachat Escape
check "Esc closes the picker" wait_gone 'Open a chat'
check "... Echo's chat is still the open one" wait_pane 'echo: hello echo'
check "... carol still unread" pane_has 'hi from carol +1'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && diag "$tmp/w.err"
finish_sim_tmux
