#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command, as a person runs it: tools/demo.sh in a
# 100x40 tmux pane (set-up skipped: WACHAT_BUILD_DIR names this build).
# The QR shows first, the simulated phone scans it, the pane shows the
# account linked and connected; q ends the demo with status 0, no
# wachat-sim is left running, the demo's temporary folder is gone and
# nothing was written to HOME.  Every wait is bounded.  TAP.
s=${top_srcdir:-.}
b=$(cd "${top_builddir:-.}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-demo-test.XXXXXX")
SOCK=$tmp/tmux.sock
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
diag() { [ -f "$1" ] && sed 's/^/# /' "$1"; }
tm() { tmux -u -S "$SOCK" -f /dev/null "$@"; }
leftover() { pgrep -f "$tmp/t/" >/dev/null 2>&1; }
cleanup() {
	tm kill-server >/dev/null 2>&1
	pkill -f "$tmp/t/" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if ! command -v tmux >/dev/null 2>&1; then
	echo "Bail out! tmux is not installed"
	exit 1
fi
mkdir -m 700 "$tmp/home" "$tmp/t"
unset TMUX

capture() { tm capture-pane -p -t demo >"$tmp/pane" 2>/dev/null; }
# wait_pane REGEX TENTHS
wait_pane() {
	i=0
	while [ "$i" -lt "$2" ]; do
		capture
		grep -Eq -- "$1" "$tmp/pane" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

tm new-session -d -s demo -x 100 -y 40 \
    "env HOME='$tmp/home' TMPDIR='$tmp/t' LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    TERM=screen WACHAT_BUILD_DIR='$b' WACHAT_DEMO_SCAN_DELAY=2 \
    sh '$s/tools/demo.sh' 2>'$tmp/demo.err'; echo \$? >'$tmp/status'"
check "the demo draws the QR first" \
    wait_pane 'scan this QR code with your phone' 300
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "the simulated phone scans it: the pane shows the account linked and connected" \
    wait_pane 'connected as \+15550000001' 300
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... with the chat panes and the help line" grep -q 'q quit' "$tmp/pane"
tm send-keys -t demo q
i=0
while [ ! -s "$tmp/status" ] && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "q ends the demo with status 0" [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]
[ "$(cat "$tmp/status" 2>/dev/null)" = 0 ] || diag "$tmp/demo.err"
check "no wachat-sim or wachat of the demo is left running" eval '! leftover'
check "the demo's temporary folder is removed" \
    [ -z "$(ls -A "$tmp/t")" ]
check "nothing was written to HOME" [ -z "$(ls -A "$tmp/home")" ]
echo "1..$n"
[ "$failed" -eq 0 ]
