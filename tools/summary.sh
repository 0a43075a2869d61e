#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Print each test program's result and the closing "N passed, N failed"
# line from an automake test-suite.log.  Exits 1 when something failed or
# no test ran.  Usage: tools/summary.sh build/test-suite.log
set -eu
log=$1
dir=$(dirname "$log")
if [ ! -f "$log" ]; then
	echo "no test log at $log: the build failed (see above)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
# One line per test program, from its .trs file.
find "$dir" -name '*.trs' | sort | while read -r trs; do
	res=$(sed -n 's/^:global-test-result: //p' "$trs")
	n=$(grep -c '^:test-result:' "$trs" || true)
	printf '%-6s %s (%s test points)\n' "$res" "${trs%.trs}" "$n" | sed "s|$dir/||"
done
# Failures in full.
if ! grep -q '^# FAIL: *0$' "$log" || ! grep -q '^# ERROR: *0$' "$log"; then
	sed -n '/^FAIL\|^ERROR/,$p' "$log" | head -n 200
fi
field() { sed -n "s/^# $1: *//p" "$log" | head -n 1; }
pass=$(field PASS); fail=$(field FAIL); err=$(field ERROR); xpass=$(field XPASS)
skip=$(field SKIP); total=$(field TOTAL)
failed=$((fail + err + xpass))
if [ "${skip:-0}" -gt 0 ]; then
	echo "$pass passed, $failed failed, $skip skipped"
else
	echo "$pass passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "${total:-0}" -gt 0 ]
