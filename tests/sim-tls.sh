#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wss:// and the extra CA file setting: wachat-sim serves TLS with a
# self-signed certificate made here; wachat (tests/wa-conn-driver) trusts
# it only when told to with --ca-file.  TAP.  Needs the openssl command.
. "${top_srcdir:-.}/tests/sim-lib.sh"

need openssl
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	diag "$tmp/openssl.log"
	exit 1
fi
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ok "wachat-sim serves wss:// on port $PORT"

driver "$tmp/t1" --ca-file "$tmp/cert.pem"
check "with the extra CA file wachat completes TLS, the handshake and gets pair-device" \
    grep -q '^pair-device refs=6$' "$tmp/t1"
driver "$tmp/t2"
check "without it wachat refuses the certificate and says why" \
    grep -q '^close err=-[0-9]* (cannot connect to the server): cannot connect to 127.0.0.1:[0-9]*: TLS certificate not trusted: self-signed certificate$' \
    "$tmp/t2"
check "no connection is left" wait_ctl '^\[\]$' connections

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
if [ -z "$reports" ]; then
	ok "no sanitizer report"
else
	not_ok "no sanitizer report"
	for f in $reports; do
		diag "$f"
	done
fi
finish_tap
