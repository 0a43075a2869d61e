#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set everything up (tools/setup.sh: the Debian packages the tests use,
# Node 20 and the interop packages; its output in build/setup.log), build
# in build/ and run every test (make check: unit tests, fuzz corpus
# replays, interop checks against Baileys and whatsapp-rust-bridge).  Ends with one line "N passed, N
# failed" (TAP test points, counted by automake's test harness) and exits
# non-zero when anything failed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The set-up says each step on stderr; its output goes to build/setup.log
# and, when a step fails, its last lines are shown.
if ! sh tools/setup.sh "$@" >"$out"; then
	echo "the set-up failed (above: the failing step and its last lines; all of it in build/setup.log)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
node=$(sed -n 's/^NODE=//p' "$out" | tail -n 1)
PATH="$(dirname "$node"):$PATH"
export PATH
cd build
status=0
make -j"$(nproc)" check >check.log 2>&1 || status=$?
[ "$status" -eq 0 ] || grep -v '^PASS:' check.log | tail -n 40
sh "$top/tools/summary.sh" test-suite.log || status=1
exit "$status"
