#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat-sim's admin additions for pairing and prekeys through `wachat-sim
# ctl`: the min_version, sw_revision and reg_refresh_pct knobs and their
# options, the /sw.js page (protocol.md 3.3), and the refusals of
# use-prekeys, reg-refresh and enter-code when there is nothing to act on.
# The flows themselves are tested with Baileys (tests/sim-baileys-*.sh).
# TAP.  Each wait is bounded; the sim is stopped at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"

"$SIM" --help >"$tmp/help"
check "--help lists the new options and routes" sh -c "
    grep -q -- '--sw-revision' '$tmp/help' &&
    grep -q -- '--reg-refresh-pct' '$tmp/help' &&
    grep -q 'use-prekeys' '$tmp/help' && grep -q 'reg-refresh' '$tmp/help' &&
    grep -q 'enter-code' '$tmp/help' && grep -q '/sw.js' '$tmp/help'"
if "$SIM" --reg-refresh-pct 101 >/dev/null 2>&1; then
	not_ok "--reg-refresh-pct above 100 is refused"
else
	ok "--reg-refresh-pct above 100 is refused"
fi

if ! sim_start --min-version 1045000000 --reg-refresh-pct 25; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl knobs >"$tmp/k0" 2>&1
check "the options set the knobs (sw_revision defaults to 1045649367)" \
    grep -q '"min_version":1045000000,"sw_revision":1045649367,"reg_refresh_pct":25' \
    "$tmp/k0"
ctl knobs min_version=2000000000 sw_revision=2000000001 reg_refresh_pct=0 \
    >"$tmp/k1" 2>&1
check "ctl knobs sets min_version, sw_revision and reg_refresh_pct" \
    grep -q '"min_version":2000000000,"sw_revision":2000000001,"reg_refresh_pct":0' \
    "$tmp/k1"
ctl knobs reg_refresh_pct=101 >"$tmp/k2" 2>&1
check "a reg_refresh_pct above 100 is refused (HTTP 400)" \
    grep -q 'HTTP 400' "$tmp/k2"
ctl sw-js >"$tmp/sw" 2>&1
check "/sw.js carries the version as clients scrape it" \
    grep -q '\\"client_revision\\":2000000001' "$tmp/sw"
ctl status >"$tmp/st" 2>&1
check "status counts unanswered queries" \
    grep -q '"unanswered_queries":0' "$tmp/st"

ctl account 15550000009 >/dev/null 2>&1
ctl use-prekeys 15550000009:1@s.whatsapp.net 3 >"$tmp/u" 2>&1
check "use-prekeys of a device that is not there: HTTP 404" \
    grep -q 'HTTP 404' "$tmp/u"
ctl reg-refresh 99 >"$tmp/r" 2>&1
check "reg-refresh of a connection that is not there: HTTP 404" \
    grep -q 'HTTP 404' "$tmp/r"
ctl reg-refresh 99 other-child >"$tmp/r2" 2>&1
check "reg-refresh with an unknown child: HTTP 400" \
    grep -q 'HTTP 400' "$tmp/r2"
ctl enter-code ABCD-EFGH >"$tmp/e" 2>&1
check "enter-code with no client waiting for a code: HTTP 404" \
    grep -q 'HTTP 404' "$tmp/e"
ctl enter-code ABCD-EFG0 >"$tmp/e2" 2>&1
check "enter-code with a character outside the code alphabet: HTTP 422" \
    grep -q 'HTTP 422' "$tmp/e2"
ctl knobs cert-fault=expired >"$tmp/kt" 2>&1
check "a misspelt knob is refused, not silently ignored: HTTP 400" \
    grep -q 'HTTP 400' "$tmp/kt"
ctl stream-error last 12abc >"$tmp/se" 2>&1
check "a stream:error code that is not a whole number is refused" \
    grep -q 'not a number' "$tmp/se"
ctl failure last 4294967296 >"$tmp/fr" 2>&1
check "a failure reason out of range is refused: HTTP 400" \
    grep -q 'HTTP 400' "$tmp/fr"
# The WebSocket port is on the loopback address only: /proc/net/tcp lists
# it with local address 0100007F (127.0.0.1), never 00000000 (any).
hexport=$(printf '%04X' "$PORT")
check "the WebSocket port listens on 127.0.0.1 only" sh -c "
    grep -q ' 0100007F:$hexport ' /proc/net/tcp &&
    ! grep -q ' 00000000:$hexport ' /proc/net/tcp &&
    ! grep -qi ':$hexport 0\{32\}:0000 0A' /proc/net/tcp6"

sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
finish_tap
