#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat's transport (proto/conn.c, through tests/wa-conn-driver) against
# wachat-sim: the admin interface, the handshake up to pair-device, every
# certificate fault with its reason, the malformed-frame knob with a
# reconnect after each, login failure, QR scan, and admin-sent errors.
# TAP.  Each wait is bounded; the sim and drivers are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ok "wachat-sim starts and prints port=$PORT admin-port=$APORT"

# --- the admin interface ---
ctl status >"$tmp/status" 2>&1
check "admin status reports the test root key" \
    grep -q "\"root_pub\":\"$ROOT_PUB\"" "$tmp/status"
ctl account 15550000001 100000000000001 alice >"$tmp/acct" 2>&1
check "admin creates an account with Signal keys for its phone" \
    grep -q '"pn":"15550000001".*"prekeys":20,.*"signed_prekey_sig":"[0-9a-f]\{128\}"' \
    "$tmp/acct"
ctl contact 15550000002 "" bob 15550000001 >"$tmp/contact" 2>&1
check "admin creates a contact with a LID of its own" \
    grep -q '"pn":"15550000002","lid":"1[0-9]\{14\}","name":"bob","kind":"contact","echo":false,"contact_of":"15550000001"' \
    "$tmp/contact"
if ctl account 15550000001 >"$tmp/dup" 2>&1; then
	not_ok "admin refuses a second account with the same number"
else
	ok "admin refuses a second account with the same number"
fi
ctl account 12ab >"$tmp/bad" 2>&1
check "admin refuses a number that is not digits (HTTP 400)" \
    grep -q 'HTTP 400' "$tmp/bad"
ctl accounts >"$tmp/accts" 2>&1
check "admin lists accounts oldest first" \
    grep -q '^\[{"pn":"15550000001".*{"pn":"15550000002"' "$tmp/accts"
ctl device 100000000000001@lid >"$tmp/dev" 2>&1
check "admin reports what it holds for a device (by LID)" \
    grep -q '"identity_pub":"[0-9a-f]\{64\}".*"first_prekey_id":1' "$tmp/dev"

# --- handshake and pair-device ---
driver "$tmp/d1" --print-qr
check "wachat completes the handshake and receives pair-device" \
    grep -q '^pair-device refs=6$' "$tmp/d1"
check "pair-device is an iq set from s.whatsapp.net with xmlns md" \
    grep -q '^recv <iq from="@s.whatsapp.net" type="set" id="sim-[0-9]*" xmlns="md" t="[0-9]*"> <pair-device> <ref>' \
    "$tmp/d1"
check "the sim saw Origin https://web.whatsapp.com on /ws/chat" \
    grep -q 'path /ws/chat, origin https://web.whatsapp.com$' "$tmp/sim.log"
check "the sim read a registration whose signed prekey verifies" \
    grep -q 'registration from wa-conn-driver (version 2.3000.1045649367, regid [0-9]*, signed prekey 1 verifies)' \
    "$tmp/sim.log"

# --- certificate checks ---
"$DRIVER" --url "$URL" --deadline-ms 60000 >"$tmp/c0" 2>&1
check "wachat trusting WhatsApp's root rejects the test root's chain" \
    grep -q '^close err=-[0-9]* (certificate chain not signed by the trusted root): server certificate rejected: intermediate certificate not signed by the trusted root$' \
    "$tmp/c0"
for fault in other-root leaf-key expired issuer-serial; do
	case $fault in
	other-root) want='not signed by the trusted root' ;;
	leaf-key) want="leaf key is not the server's static key" ;;
	expired) want='certificate expired' ;;
	issuer-serial) want='wrong issuer serial' ;;
	esac
	ctl knobs cert_fault=$fault >/dev/null 2>&1
	driver "$tmp/c-$fault"
	check "wachat rejects a chain with fault $fault: $want" \
	    grep -q "^close err=-[0-9]* (.*): server certificate rejected: .*$want" \
	    "$tmp/c-$fault"
	if grep -q '^open$' "$tmp/c-$fault"; then
		not_ok "no handshake completes with fault $fault"
	else
		ok "no handshake completes with fault $fault"
	fi
done
ctl knobs cert_fault=none >/dev/null 2>&1

# --- malformed frames: a clear error, then a clean reconnect ---
for kind in truncated oversized garbage undecryptable; do
	case $kind in
	truncated) want='input ends inside a field): the connection ended inside a frame' ;;
	oversized) want='length above the limit): a frame announces more than the 1048576-byte limit' ;;
	garbage) want='input ends inside a field): frame 1 of 5 bytes is too short' ;;
	undecryptable) want='authentication tag mismatch): frame 1 (32 bytes) does not decrypt' ;;
	esac
	ctl knobs malformed_next=$kind >/dev/null 2>&1
	driver "$tmp/m-$kind" --max-frame 1048576 --reconnects 1
	rc=$?
	check "a $kind frame closes the connection with: $want" \
	    grep -q "^close err=-[0-9]* ($want" "$tmp/m-$kind"
	if [ $rc -eq 0 ] && grep -q '^reconnect$' "$tmp/m-$kind" &&
	    grep -q '^pair-device refs=6$' "$tmp/m-$kind"; then
		ok "after the $kind frame wachat reconnects and gets pair-device"
	else
		not_ok "after the $kind frame wachat reconnects and gets pair-device"
		diag "$tmp/m-$kind"
		diag "$tmp/m-$kind.err"
	fi
done

# --- login of an unknown device ---
driver "$tmp/login" --login 15550000001:7 --until close
check "a login of an unknown device gets <failure reason=\"401\"/>" \
    grep -q '^recv <failure reason="401"/>$' "$tmp/login"

# --- QR scan, pair-success, and admin-sent stanzas ---
driver_bg "$tmp/q" --print-qr --until close
if wait_grep "$tmp/q" '^qr '; then
	qr=$(sed -n 's/^qr //p' "$tmp/q")
	ctl dry-scan-qr "$qr" >"$tmp/dry" 2>&1
	check "a dry scan of wachat's QR matches its connection and keys" \
	    grep -q '"prefixed":true,.*"platform_id":"9",.*"account":"15550000001","device_jid":"15550000001:1@s.whatsapp.net","device_lid":"100000000000001:1@lid","paired":false' \
	    "$tmp/dry"
	ctl scan-qr "${qr%,9},x" >"$tmp/badqr" 2>&1
	check "a QR with a bad platform id is refused (HTTP 422)" \
	    grep -q 'HTTP 422' "$tmp/badqr"
	ctl scan-qr "$qr" >"$tmp/scan" 2>&1
	check "scanning wachat's QR sends pair-success" \
	    wait_grep "$tmp/q" '^recv <iq from="@s.whatsapp.net" type="set" id="sim-[0-9]*" xmlns="md" t="[0-9]*"> <pair-success> <device-identity>.*</device-identity> <platform name="smba"/> <device jid="15550000001:1@s.whatsapp.net" lid="100000000000001:1@lid"/> </pair-success> </iq>$'
	ctl stream-error last 515 >/dev/null 2>&1
	check "admin stream-error reaches wachat, then the sim closes" \
	    wait_grep "$tmp/q" '^close err=.*the server closed the connection'
	grep -q '^recv <stream:error code="515"/>$' "$tmp/q" &&
	    ok "wachat received <stream:error code=\"515\"/>" ||
	    not_ok "wachat received <stream:error code=\"515\"/>"
else
	not_ok "the driver printed its QR"
	diag "$tmp/q.err"
fi
wait_pid "$dpid"
check "the driver ends cleanly (no handles left)" [ "$status" -eq 0 ]
ctl device 15550000001:1@s.whatsapp.net >"$tmp/unpaired" 2>&1
check "a device that never signed pair-device-sign is forgotten" \
    grep -q 'HTTP 404' "$tmp/unpaired"

driver_bg "$tmp/f" --until close
wait_grep "$tmp/f" '^pair-device'
ctl failure last 403 >/dev/null 2>&1
wait_pid "$dpid"
check "admin failure reaches wachat" \
    grep -q '^recv <failure reason="403"/>$' "$tmp/f"

driver_bg "$tmp/x" --until close
wait_grep "$tmp/x" '^pair-device'
ctl drop last >/dev/null 2>&1
wait_pid "$dpid"
check "admin drop closes the connection and wachat says so" \
    grep -q '^close err=-[0-9]* (the server closed the connection)' "$tmp/x"
ctl drop last >"$tmp/nodrop" 2>&1
check "dropping when nothing is connected answers 404" \
    grep -q 'HTTP 404' "$tmp/nodrop"

check "no connection is left" wait_ctl '^\[\]$' connections
failed_now && diag "$tmp/wc"

sim_stop
check "wachat-sim exits cleanly on admin shutdown (status $status)" \
    [ "$status" -eq 0 ]
[ "$status" -eq 0 ] || diag "$tmp/sim.err"
# Under --enable-asan/--enable-ubsan every driver run and the sim report
# leaks and undefined behaviour on stderr.
reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
if [ -z "$reports" ]; then
	ok "no sanitizer report from wachat-sim or any wa-conn-driver run"
else
	not_ok "no sanitizer report from wachat-sim or any wa-conn-driver run"
	for f in $reports; do
		diag "$f"
	done
fi
finish_tap
