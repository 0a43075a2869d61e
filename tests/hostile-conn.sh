#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The engine (tests/wa-eng-driver, as wachat runs it, with a real store)
# against hostile servers (issue 15, points 5 and 6): a loopback server
# (tests/hostile/hostile.py) that refuses, resets, closes, sends random
# bytes, answers HTTP 404, stalls before the upgrade, sends TLS garbage
# or stalls in TLS (wss with a test CA), sends bad WebSocket frames, a bad
# or a junk ServerHello, or nothing after the upgrade; and wachat-sim's
# knobs for garbage and silence after the handshake and after <success>.
# Every case must end within its deadline (short ones, as settings),
# say why in one clean phrase (the text wachat shows), reconnect, and
# leave no handle open.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
ENG="$b/tests/wa-eng-driver"
HOSTILE="$s/tests/hostile/hostile.py"
PN=15550000001
# Each state's deadline, ms (the defaults are 20 s).
DL=1500

for tool in python3 openssl; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "Bail out! $tool is not installed (tools/setup.sh installs it)"
		exit 1
	fi
done

# hostile_start MODE: a hostile server; sets $hport and $hpid.
hostile_start() {
	# A port file of an earlier server of this mode must not be read as
	# this one's: it goes first (the background redirection truncates it
	# only once the child runs).
	rm -f "$tmp/h-$1.port" "$tmp/h-$1.log"
	python3 "$HOSTILE" "$1" >"$tmp/h-$1.port" 2>"$tmp/h-$1.log" &
	hpid=$!
	bg_pids="$bg_pids $hpid"
	if ! wait_grep "$tmp/h-$1.port" '^port=[0-9]+$' 600; then
		echo "Bail out! the hostile server ($1) gave no port in 60 s"
		sed 's/^/# /' "$tmp/h-$1.log"
		exit 1
	fi
	hport=$(sed -n 's/^port=//p' "$tmp/h-$1.port")
}

hostile_stop() {
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$hpid\\>//")
}

# run_case NAME URL REGEX [OPTION]...: the engine against URL until its
# first disconnect and 1.5 s more; checks the reason, the reconnect and a
# clean end.
run_case() {
	name=$1
	url=$2
	want=$3
	shift 3
	out="$tmp/e-$name"
	mkdir -p -m 700 "$tmp/st-$name"
	"$ENG" --url "$url" --root "$ROOT_PUB" --store "$tmp/st-$name" \
	    --handshake-timeout-ms $DL --wait-ms $DL --retry-cap-ms 300 \
	    --until disconnected --linger-ms 1500 --deadline-ms 40000 "$@" \
	    >"$out" 2>"$out.err"
	rc=$?
	check "$name: the engine says why: $want" \
	    grep -q -E "^disconnected err=-[0-9]+ retry_ms=[0-9]+: $want\$" \
	    "$out" || { diag "$out"; diag "$out.err"; }
	check "$name: it reconnects, and ends cleanly (status $rc)" \
	    sh -c "[ $rc -eq 0 ] && grep -q '^connecting 2 ' '$out'" ||
	    diag "$out"
}

H=127.0.0.1
# --- before the handshake: the hostile server
hostile_start close
hostile_stop
run_case refused "ws://$H:$hport/ws/chat" \
    "cannot connect to $H:$hport: Connection refused"
for mode in close reset garbage http stall ws-garbage ws-text bad-hello \
    junk-hello hs-stall; do
	case $mode in
	close) want="cannot connect to $H:[0-9]+: the server (reset|closed) the connection during the WebSocket upgrade" ;;
	reset) want="cannot connect to $H:[0-9]+: the server reset the connection during the WebSocket upgrade" ;;
	garbage) want="cannot connect to $H:[0-9]+: not a WebSocket server \\(.*\\)" ;;
	http) want="cannot connect to $H:[0-9]+: not a WebSocket server \\(HTTP status 404\\)" ;;
	stall) want="timed out in the WebSocket upgrade \\(no progress within $DL ms\\)" ;;
	ws-garbage) want="a bad WebSocket frame from the server during the Noise handshake" ;;
	ws-text) want="timed out in the Noise handshake \\(no progress within $DL ms\\)" ;;
	bad-hello) want="bad ServerHello: authentication tag mismatch" ;;
	junk-hello) want="bad ServerHello: [a-z ]+" ;;
	hs-stall) want="timed out in the Noise handshake \\(no progress within $DL ms\\)" ;;
	esac
	hostile_start $mode
	run_case $mode "ws://$H:$hport/ws/chat" "$want"
	check "$mode: the server saw the reconnect" \
	    wait_grep "$tmp/h-$mode.log" '^accept 2$' 600
	hostile_stop
done

# --- TLS: wss with a test CA, the server sends garbage or stalls
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi
hostile_start tls-garbage
run_case tls-garbage "wss://$H:$hport/ws/chat" \
    "cannot connect to $H:[0-9]+: TLS handshake failed: [a-z][a-z ]+" \
    --ca-file "$tmp/cert.pem"
hostile_stop
hostile_start stall
run_case tls-stall "wss://$H:$hport/ws/chat" \
    "timed out in the TLS handshake \\(no progress within $DL ms\\)" \
    --ca-file "$tmp/cert.pem"
hostile_stop

# --- after the handshake: wachat-sim's knobs
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1
ctl knobs malformed_next=garbage >/dev/null 2>&1
run_case garbage-after-handshake "$URL" \
    "frame 1 of 5 bytes is too short for a flags byte and its 16-byte tag"
ctl knobs silent_next=handshake >/dev/null 2>&1
run_case silent-registration "$URL" \
    "timed out waiting for pair-device after the registration \\(no answer within 2 s\\)"

# a linked store, then silence on its login and after its <success>
st="$tmp/linked"
mkdir -m 700 "$st"
"$ENG" --url "$URL" --root "$ROOT_PUB" --store "$st" --qr-file "$tmp/qr" \
    --until connected --deadline-ms 40000 >"$tmp/link" 2>&1 &
lpid=$!
bg_pids="$bg_pids $lpid"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 600
ctl scan-qr "$(cat "$tmp/qr")" >/dev/null 2>&1
wait "$lpid"
check "a store links and logs in (for the login cases)" \
    grep -q '^connected ' "$tmp/link" || diag "$tmp/link"
cp -R "$st" "$tmp/st-silent-login"
ctl knobs silent_next=handshake >/dev/null 2>&1
run_case silent-login "$URL" \
    "timed out waiting for <success> or <failure> after the login \\(no answer within 2 s\\)"
rm -rf "$tmp/st-silent-after-success"
cp -R "$st" "$tmp/st-silent-after-success"
ctl knobs silent_next=login >/dev/null 2>&1
run_case silent-after-success "$URL" \
    "no answer to the keepalive ping within 1 s" \
    --ping-ms 500 --ping-deadline-ms 1000

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
