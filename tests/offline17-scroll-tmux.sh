#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Sending offline while scrolled back (issue 17 point 6): in a 100x30
# tmux pane, wachat linked as alice through a relay (tests/tcp-relay.py)
# to wachat-sim; bob's phone sends 200 messages.  The relay stops (the
# server is gone), bob's chat is opened and paged back (PgUp) until its
# newest rows are no longer held.  A message sent then shows at once
# with the rows before it and its queued tick (…), never a blank pane,
# and the chat list's preview says it (a queued message updates the list
# while offline).  The relay starts again: the message reaches bob's
# phone.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
RELAY="${top_srcdir:-.}/tests/tcp-relay.py"

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

RP=$(python3 "$RELAY" free-port)
# relay_start: the server reachable again (sets $rpid).
relay_start() {
	: >"$tmp/relay.out"
	python3 "$RELAY" "$RP" "$PORT" >"$tmp/relay.out" 2>"$tmp/relay.err" &
	rpid=$!
	bg_pids="$bg_pids $rpid"
	wait_grep "$tmp/relay.out" '^listening'
}
check "the relay to the sim listens" relay_start

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url 'ws://127.0.0.1:$RP/ws/chat' \
    --root-key '$ROOT_PUB' --data-dir '$tmp/data' --qr-file '$tmp/qr' \
    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'
i=1
while [ $i -le 200 ]; do
	ctl phone-send $B $AJ "bob line $i" >/dev/null 2>&1
	i=$((i + 1))
done
check "bob's 200 messages come in" wait_pane '^ ?bob line 200'

# The server goes.
kill "$rpid" 2>/dev/null
wait "$rpid" 2>/dev/null
check "the relay stopped: wachat cannot connect" \
    wait_pane 'cannot connect to 127\.0\.0\.1'

tm send-keys -t wachat Tab
# all 200 unread, more than a page: it opens at the first unread
# (tests/unreadline17-line-tmux.sh); End goes to the newest
check "Tab opens bob's chat at its first unread" \
    wait_pane '│ +200 unread messages *$'
tm send-keys -t wachat End
check "... End: at its newest message" \
    wait_pane '│ +bob line 200'
# (each PgUp moves a screen; at the top of what is held, it reads the
# page before, and beyond three pages the newest rows are let go)
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	tm send-keys -t wachat PPage
	input_read
done
check "PgUp pages back past the held rows (bob line 5x shows)" \
    wait_pane '│ +bob line [1-5][0-9]$'
check "... and the newest rows are not in the pane" \
    pane_lacks '│ +bob line 200'
failed_now && show

tm send-keys -t wachat -l "sent scrolled back"
t0=$(date +%s%N)
tm send-keys -t wachat Enter
check "sent while scrolled back: the pane shows it queued (…)" \
    wait_panes '│ *You [0-9]{2}:[0-9]{2} …' '│ +sent scrolled back'
t1=$(date +%s%N)
check "... at once ($(((t1 - t0) / 1000000)) ms, < 3000)" \
    [ $(((t1 - t0) / 1000000)) -lt 3000 ]
check "... under the rows before it: the pane is not blank" \
    pane_has '│ +bob line 199' '│ +bob line 200'
check "... and the chat list's preview is the queued message" \
    wait_pane '^ ?(You: )?sent scrolled back'
failed_now && show
check "... it has not reached bob's phone yet" \
    eval '! ctl phone-inbox $B | grep -q "sent scrolled back"'

check "the relay listens again (the server is back)" relay_start
check "... wachat connects" wait_pane "connected as .*\\+$A"
check "... the queued message reaches bob's phone" \
    wait_ctl '"text":"sent scrolled back"' phone-inbox $B
check "... and its tick moves on (✓ or ✓✓)" \
    wait_pane '│ *You [0-9]{2}:[0-9]{2} ✓'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
