#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 13: search finds Chinese and Japanese words inside a run
# of characters written without spaces.  wachat in a detached 100x30 tmux
# pane against wachat-sim, linked as alice; bob's phone sends
# "東京タワーで会おう" and then "我明天早上到北京。".  Alt-f 北京 lists the
# second as a hit (before issue 17 the run was one token: "no results"),
# Enter opens bob's chat at it; Alt-f タワー (inside the first run) lists
# the first, which is not the chat list's preview; Alt-/ 京 (one
# character) lists both in the open chat, 大阪 neither; `wachat search
# 北京` run beside it prints the hit (in a pipe unmarked; --marks marks
# it).  TAP.  Every
# wait is bounded.
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

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
link_and_connect

ctl phone-send $B $AJ "東京タワーで会おう" >"$tmp/send1.json" 2>&1
check "bob's first message shows as the preview" wait_pane '東京タワーで会おう'
ctl phone-send $B $AJ "我明天早上到北京。" >"$tmp/send2.json" 2>&1
check "... then the second" wait_pane '我明天早上到北京。'
failed_now && { show; diag "$tmp/send2.json"; }

# hits TITLE RE...: the search pane is open (TITLE), its answer in (not
# "searching…" nor "no results"), and the pane shows each RE.
hits() {
	h_t=$1
	shift
	pane_has "$h_t" "$@" && ! grep -Eq 'no results|searching' "$tmp/pane"
}

tm send-keys -t wachat M-f
input_read
check "Alt-f opens the search of all chats" wait_pane 'Search all chats'
tm send-keys -t wachat -l "北京"
input_read
check "北京 lists the message holding it inside a run" \
    wait_for hits 'Search all chats' '我明天早上到北京' 'bob'
failed_now && show
tm send-keys -t wachat Enter
check "Enter opens bob's chat at the hit" \
    wait_panes '│ *bob [0-9]{2}:[0-9]{2}' '我明天早上到北京。'
failed_now && show
check "... the search closed" wait_gone 'Search all chats'

tm send-keys -t wachat M-f
input_read
tm send-keys -t wachat -l "タワー"
input_read
# The list's rows: the hit's snippet under "Search all chats", while the
# chat list's preview is the newer message.
check "タワー (inside 東京タワーで会おう) lists the older message" \
    wait_for hits 'Search all chats' '東京タワーで会おう'
failed_now && show
check "... not the newer one (the chat list's preview only)" \
    [ "$(grep -c '我明天早上到北京' "$tmp/pane")" = 1 ]
tm send-keys -t wachat Escape
check "Esc closes the search" wait_gone 'Search all chats'

tm send-keys -t wachat M-/
input_read
tm send-keys -t wachat -l "京"
input_read
check "Alt-/ 京 (one character) lists both messages in the chat" \
    wait_for hits 'Search in bob' '東京タワーで会おう' '我明天早上到北京'
failed_now && show
tm send-keys -t wachat BSpace
input_read
tm send-keys -t wachat -l "大阪"
input_read
check "... 大阪, in neither, gives no results" \
    wait_panes 'Search in bob' 'no results'
failed_now && show
tm send-keys -t wachat Escape
wait_gone 'Search in bob'

"$W" search 北京 --data-dir "$tmp/data" >"$tmp/s.txt" 2>&1
check "wachat search 北京 prints the hit (in a pipe the text as it is)" \
    grep -q '我明天早上到北京。' "$tmp/s.txt"
failed_now && diag "$tmp/s.txt"
"$W" search 早上 --marks --data-dir "$tmp/data" >"$tmp/s2.txt" 2>&1
check "wachat search 早上 --marks (a word in the middle) finds it, marked" \
    grep -q '我明天\*早上\*到北京' "$tmp/s2.txt"
failed_now && diag "$tmp/s2.txt"

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
