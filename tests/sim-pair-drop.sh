#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A link that drops around pair-device-sign (issue 15, point 4): the sim
# (knob drop_pair_sign) drops the connection as the engine answers
# pair-success, so the server never accepts the link.  The engine
# (tests/wa-eng-driver, a real store) must go back to a new QR by itself,
# saying the link did not complete, never "logged out"; and a store left
# by a run that ended right after pairing must not make the next start
# end as logged out either.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
ENG="$b/tests/wa-eng-driver"
PN=15550000001

# eng_bg OUT STORE [OPTION]...: the engine driver in the background.
eng_bg() {
	out=$1
	dir=$2
	shift 2
	"$ENG" --url "$URL" --root "$ROOT_PUB" --store "$dir" \
	    --retry-cap-ms 500 "$@" >"$out" 2>"$out.err" &
	dpid=$!
	bg_pids="$bg_pids $dpid"
}

# wait_count FILE REGEX N [TENTHS]: wait until N lines of FILE match.
wait_count() {
	i=0
	while [ "$i" -lt "${4:-100}" ]; do
		[ "$(grep -c -E -- "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# stop_bg PID: end a background driver.
stop_bg() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$1\\>//")
}

# scan QRFILE: the phone scans the QR in QRFILE once it is there.
scan() {
	wait_grep "$1" 'https://wa\.me/settings/linked_devices#' 600 &&
	    ctl scan-qr "$(cat "$1")" >"$tmp/scan" 2>&1
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1

# --- 1: the drop in one run: a new QR follows by itself
mkdir -m 700 "$tmp/s1"
ctl knobs drop_pair_sign=1 >/dev/null 2>&1
eng_bg "$tmp/r1" "$tmp/s1" --qr-file "$tmp/qr1" --until connected \
    --deadline-ms 60000
check "the phone scans the first QR" scan "$tmp/qr1"
check "the sim dropped the connection as pair-device-sign came" \
    wait_grep "$tmp/sim.log" 'dropping the connection unaccepted' 600
check "the login of the unaccepted link says the link did not complete" \
    wait_grep "$tmp/r1" '^disconnected err=-[0-9]* retry_ms=0: the link with the phone did not complete \(logged out from another device \(failure 401\)\); showing a new QR code$' \
    300 || diag "$tmp/r1"
check "a new QR follows by itself, on a new registration" \
    wait_count "$tmp/r1" '^qr 0 60 https://wa.me/settings/linked_devices#' 2 300
if grep -q '^logged-out' "$tmp/r1"; then
	not_ok "it does not end as logged out"
	diag "$tmp/r1"
else
	ok "it does not end as logged out"
fi
check "the new QR carries new keys" [ "$(grep '^qr 0 ' "$tmp/r1" |
    cut -d, -f2 | sort -u | wc -l)" -eq 2 ]
stop_bg "$dpid"

# --- 2: the run ends right after pairing; the next start
mkdir -m 700 "$tmp/s2"
ctl knobs drop_pair_sign=1 >/dev/null 2>&1
eng_bg "$tmp/r2" "$tmp/s2" --qr-file "$tmp/qr2" --until paired \
    --deadline-ms 60000
check "a second store is paired by a scan" scan "$tmp/qr2"
wait "$dpid"
bg_pids=$(echo "$bg_pids" | sed "s/\\<$dpid\\>//")
check "that run ended right after pair-success" grep -q '^paired ' "$tmp/r2"
rm -f "$tmp/qr2"
eng_bg "$tmp/r3" "$tmp/s2" --qr-file "$tmp/qr2" --until qr \
    --deadline-ms 60000
wait "$dpid"
status=$?
bg_pids=$(echo "$bg_pids" | sed "s/\\<$dpid\\>//")
check "the next start shows a new QR instead of ending logged out (status $status)" \
    grep -q '^qr 0 60 https://wa.me/settings/linked_devices#' "$tmp/r3" ||
    diag "$tmp/r3"
check "and says the link did not complete" \
    grep -q '^disconnected .*: the link with the phone did not complete' \
    "$tmp/r3"

# --- 3: a link that completes is confirmed: a later 401 logs out
mkdir -m 700 "$tmp/s3"
ctl knobs drop_pair_sign=0 >/dev/null 2>&1
eng_bg "$tmp/r4" "$tmp/s3" --qr-file "$tmp/qr3" --until connected \
    --deadline-ms 60000
check "a third store links without a drop" scan "$tmp/qr3" ||
    diag "$tmp/scan"
wait "$dpid"
bg_pids=$(echo "$bg_pids" | sed "s/\\<$dpid\\>//")
check "and logs in" grep -q '^connected ' "$tmp/r4" || {
	diag "$tmp/r4"; diag "$tmp/scan"; tail -20 "$tmp/sim.log"; }
jid=$(sed -n 's/^connected //p' "$tmp/r4")
ctl remove-device "$jid" >/dev/null 2>&1
eng_bg "$tmp/r5" "$tmp/s3" --until logged-out --deadline-ms 60000
wait "$dpid"
bg_pids=$(echo "$bg_pids" | sed "s/\\<$dpid\\>//")
check "a removed linked device still ends as logged out" \
    grep -q '^logged-out: ' "$tmp/r5" || diag "$tmp/r5"

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
finish_tap
