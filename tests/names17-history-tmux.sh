#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: history sync's progress counts the whole transfer,
# not the last chunk.  wachat in a detached 100x30 tmux pane against
# wachat-sim, linked as alice, whose phone holds 10 chats and 600 messages
# sent in chunks of at most 100 (the media host slowed, so each chunk
# shows): the status line's "history: N% (M messages added)" goes past
# one chunk's 100 (before, it said each chunk's own count, never above
# 100).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"

# The media host is https: a certificate of our own, as ui-history-tmux.
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
ctl history-set $A 10 600 11 100 >"$tmp/hist.json" 2>&1
check "the phone holds a history of 600 messages in chunks of 100" \
    grep -q '"messages":600' "$tmp/hist.json"
failed_now && diag "$tmp/hist.json"
ctl history-media-delay 300 >/dev/null 2>&1

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "the status line shows the history coming in" \
    wait_pane 'history: [0-9]+% \([0-9]+ messages added\)'
check "... its count goes past one chunk's 100: the transfer's total" \
    wait_pane 'history: [0-9]+% \(([2-9][0-9]{2}|[0-9]{4,}) messages added\)'
failed_now && show
ctl history-media-delay 0 >/dev/null 2>&1
all_in() {
	ai_n=$("$W" chats --data-dir "$tmp/data" 2>/dev/null | wc -l)
	[ "$ai_n" -ge 10 ]
}
check "... and the chats are all in" wait_for all_in

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
