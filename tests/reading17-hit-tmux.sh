#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 5: PgUp and PgDn page on from a search hit at once.
# wachat in a detached 100x30 tmux pane, linked to wachat-sim, whose
# phone holds one chat of 400 messages (seed 11: message 114 ends in
# "qxke", 137 in "qxhf", 168 in "qxmg").  Alt-f finds "qxhf", Enter opens
# the chat there; PgDn then moves on to "qxmg" (past the page read around
# the hit, so the next page is read too), the hit scrolled away.  Alt-/
# finds it again in the open chat, and PgUp moves back to "qxke".
# TAP.  Every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"

# The history's media host speaks TLS only.
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
ctl history-set $A 1 400 11 >"$tmp/hist.json" 2>&1
ctl history-chat $A 15557000001@s.whatsapp.net >"$tmp/chat.json" 2>&1
check "the phone's chat holds qxke, qxhf and qxmg" \
    grep -q 'qxke.*qxhf.*qxmg' "$tmp/chat.json"

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as"
# the whole history in (the chat's oldest message searchable)
all_in() {
	"$W" search qxe --data-dir "$tmp/data" >"$tmp/s.txt" 2>&1 &&
	    grep -q qxe "$tmp/s.txt"
}
check "the history is imported" wait_for all_in
failed_now && { show; diag "$tmp/s.txt"; }

# key KEY... REGEX: press KEY (one at a time, each read before the next,
# at most 12 times) until the pane shows REGEX.
key_until() {
	ku_k=$1
	ku_re=$2
	ku_i=0
	while [ $ku_i -lt 12 ]; do
		pane_has "$ku_re" && return 0
		tm send-keys -t wachat "$ku_k"
		input_read
		sleep 0.3
		ku_i=$((ku_i + 1))
	done
	wait_pane "$ku_re" 20
}

tm send-keys -t wachat M-f
input_read
tm send-keys -t wachat -l qxhf
check "Alt-f qxhf lists its hit" wait_pane 'Naïve question.*qxhf'
failed_now && show
tm send-keys -t wachat Enter
check "Enter opens the chat at the hit" wait_joined_re \
    'qxhf' '│ *Zoë Müller'
failed_now && show
check "PgDn pages on from the hit, to qxmg (31 messages newer)" \
    key_until PageDown 'qxmg'
failed_now && show
check "... the hit scrolled away" wait_gone 'qxhf'
failed_now && show

tm send-keys -t wachat M-/
input_read
tm send-keys -t wachat -l qxhf
check "Alt-/ qxhf lists its hit in the open chat" \
    wait_pane 'Naïve question.*qxhf'
failed_now && show
tm send-keys -t wachat Enter
check "Enter shows the hit again" wait_pane 'qxhf.*'
wait_gone 'qxmg'
check "PgUp pages on from the hit, to qxke (23 messages older)" \
    key_until PageUp 'qxke'
failed_now && show
check "... the hit scrolled away" wait_gone 'qxhf'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
