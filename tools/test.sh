#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set everything up (tools/setup.sh), build in build/ and run every test
# (make check: unit tests, fuzz corpus replays, interop checks against
# Baileys and whatsapp-rust-bridge).  Ends with one line "N passed, N
# failed" (TAP test points, counted by automake's test harness) and exits
# non-zero when anything failed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
node=$(sh tools/setup.sh "$@" | sed -n 's/^NODE=//p' | tail -n 1)
PATH="$(dirname "$node"):$PATH"
export PATH
cd build
status=0
make -j"$(nproc)" check >check.log 2>&1 || status=$?
[ "$status" -eq 0 ] || grep -v '^PASS:' check.log | tail -n 40
sh "$top/tools/summary.sh" test-suite.log || status=1
exit "$status"
