#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Older messages asked of the phone (protocol.md 12.4, a tester's
# finding): wachat in a detached tmux pane against wachat-sim over wss
# (the answer is a history blob on the sim's media server), linked as
# alice, whose phone holds no history.  bob writes once; in his chat
# PgUp at the top asks the phone: "asking your phone for older
# messages…".  The answer is held back 4 s (history-media-delay): more
# PgUps meanwhile send no second request.  The phone answers with
# nothing: the note goes, "no older messages on your phone" says so, and
# PgUp again asks no more.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

if ! command -v openssl >/dev/null 2>&1; then
	echo "Bail out! openssl is not installed (sh tools/setup.sh installs it)"
	exit 1
fi
. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
# a phone history of one chat (not bob's): sent at the link, and the
# phone answers on-demand requests (bob's chat: with nothing)
ctl history-set $A 1 3 7 >/dev/null 2>&1

# asked: the on-demand requests the sim's phone answered.
asked() {
	ctl history-status 2>/dev/null |
	    sed -n 's/.*"on_demand_answered":\([0-9]*\).*/\1/p'
}
asked_is() {
	[ "$(asked)" = "$1" ]
}
# inbox_has TEXT: bob's phone decrypted TEXT.
inbox_has() {
	ctl phone-inbox $B 2>/dev/null | grep -q "\"text\":\"$1\""
}

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 150
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A" 300
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 150
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob' 150
tm send-keys -t wachat Tab
check "Tab opens bob's chat (named by the phone's address book)" wait_pane '^.*│ *bob Tanaka [0-9]{2}:[0-9]{2}' 100
failed_now && show
check "the sim's phone has answered no request yet ($(asked))" asked_is 0

ctl history-media-delay 4000 >/dev/null 2>&1
tm send-keys -t wachat PPage
check "PgUp at the top asks the phone" \
    wait_pane 'asking your phone for older messages' 100
failed_now && show
tm send-keys -t wachat PPage
tm send-keys -t wachat PPage
input_read
check "the phone answers (after the 4 s delay)" wait_cmd 300 asked_is 1
failed_now && show
check "'no older messages on your phone' when the answer had none" \
    wait_pane 'no older messages on your phone' 300
failed_now && show
check "... and 'asking your phone' is gone" \
    wait_gone 'asking your phone for older messages' 50
ctl history-media-delay 0 >/dev/null 2>&1

# PgUp again: nothing more asked.  A message sent after it goes out
# behind any request it would have made: once bob has it, the count
# is final.
tm send-keys -t wachat PPage
tm send-keys -t wachat PPage
input_read
tm send-keys -t wachat -l "after the pgups"
tm send-keys -t wachat Enter
check "a message sent after the PgUps reaches bob" \
    wait_cmd 300 inbox_has "after the pgups"
n_asked=$(ctl history-status 2>/dev/null | grep -o '"on_demand_answered":[0-9]*')
check "one request in all for the five PgUps ($n_asked)" asked_is 1
failed_now && grep 'on-demand' "$tmp/sim.log" | sed 's/^/# /'

tm send-keys -t wachat C-q
wait_gone 'connected as' 100
tm kill-server >/dev/null 2>&1
sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err "$LOG" 2>/dev/null
then
	not_ok "no sanitizer report"
	for f in "$tmp"/*.err; do diag "$f"; done
else
	ok "no sanitizer report"
fi
finish_tap
