#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Small windows in a real terminal (issue 17, point 11): wachat in a
# detached tmux pane against wachat-sim, linked as alice, with a chat from
# bob.  At 30x10 the screen says the size it needs and the size it has
# ("window too small: 40x13 needed, this is 30x10"); at 40x13 the help
# line shows whole items only (none cut in a word, the help key kept);
# Ctrl-l (after nchat) hides the chat list, the open chat taking the whole
# width, and shows it again; the key page lists Ctrl-l (with Alt-z).  TAP.  Every wait
# is bounded; tmux, wachat and the sim are killed at the end.
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

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"

link_and_connect
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "Tab opens it" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
failed_now && show

tm send-keys -t wachat C-g
check "the key page lists Ctrl-l (beside Alt-z, the archived chats)" \
    wait_pane 'Ctrl-l Alt-z +hide, show the list; archived chats'
failed_now && show
tm send-keys -t wachat Escape
check "... any key closes it" wait_gone 'Ctrl-l Alt-z +hide, show'
input_read

tm resize-window -t wachat -x 30 -y 10
wait_size 30x10
check "at 30x10 the screen says the size needed and the size it has" \
    wait_joined 'window too small: 40x13 needed, this is 30x10'
failed_now && show

tm resize-window -t wachat -x 40 -y 13
wait_size 40x13
check "at 40x13 the chat screen shows" wait_panes 'Chats' '│> ?'
# last_row: the pane's bottom row (the help line), trimmed.
last_row() {
	capture
	tail -n 1 "$tmp/pane" | sed -e 's/^ *//' -e 's/ *$//' >"$tmp/hints"
	[ -s "$tmp/hints" ]
}
check "... with a help line" wait_for last_row
hints=$(cat "$tmp/hints")
check "... of whole items only: '$hints'" eval \
    'echo "$hints" | grep -Eq "^Enter send  Ctrl-g help  Ctrl-q quit$"'
failed_now && show

tm send-keys -t wachat C-l
check "Ctrl-l hides the chat list" wait_gone 'Chats'
check "... the open chat takes the whole width (no rule left of it)" \
    wait_panes '^ bob [0-9]{2}:[0-9]{2}' '^ +hello from bob' '^> ?'
check "... no list rule anywhere" pane_lacks '│'
failed_now && show
tm send-keys -t wachat -l 'typed here'
check "... the input line takes text" wait_pane '^> typed here'
tm send-keys -t wachat C-l
check "Ctrl-l again shows the list" wait_panes 'Chats' '│> typed here'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && diag "$tmp/w.err"
finish_sim_tmux
