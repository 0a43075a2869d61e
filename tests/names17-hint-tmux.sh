#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 9 (the selection's keys) and point 12 (the key page and
# the README agree on reply): wachat in a detached 100x30 tmux pane
# against wachat-sim, linked as alice, in bob's chat.  Up selects our own
# message: the line over the input offers reply, react, copy, edit and
# delete; Up again selects bob's: reply, react and copy, no edit and no
# delete; Ctrl-g's key page lists reply as "Enter Ctrl-r", as the README's
# key table does.  TAP.
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
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's message comes in" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
sleep 1.1	# our message sorts after bob's
tm send-keys -t wachat -l "mine to edit"
tm send-keys -t wachat Enter
check "our message is sent and shows as ours" \
    wait_pane '^.*│ *You [0-9]{2}:[0-9]{2} ✓'
failed_now && show

tm send-keys -t wachat Up
check "Up selects our message: reply, react, copy, edit and delete offered" \
    wait_pane 'Enter reply  Alt-s react  Alt-c copy  Alt-e edit  Ctrl-d delete'
failed_now && show
tm send-keys -t wachat Up
check "Up again selects bob's: reply, react and copy offered" \
    wait_pane 'Enter reply  Alt-s react  Alt-c copy  Esc back'
check "... and neither edit nor delete" \
    sh -c "! grep -Eq 'Alt-e edit|Ctrl-d delete' '$tmp/pane'"
failed_now && show
tm send-keys -t wachat Escape
check "Esc leaves the selection" wait_gone 'Enter reply'

tm send-keys -t wachat C-g
check "Ctrl-g's key page lists reply as Enter Ctrl-r" \
    wait_pane 'Enter Ctrl-r +reply to the selected message'
failed_now && show
check "... as the README's key table does" \
    grep -q '^| Enter, Ctrl-r | `reply` | reply to the selected message |$' \
    "${top_srcdir:-.}/README.md"
tm send-keys -t wachat Escape
check "Esc closes the key page" wait_gone 'Enter Ctrl-r'
input_read

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
