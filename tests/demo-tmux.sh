#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command, as a person runs it: tools/demo.sh in a
# 100x40 tmux pane (set-up skipped: WACHAT_BUILD_DIR names this build).
# The QR shows first, the simulated phone scans it, the pane shows the
# account linked and connected; q ends the demo with status 0, no process
# of the demo is left running (none in the pane's session, none naming
# its folder), the demo's temporary folder is gone and nothing was written
# to HOME.  The same when q comes before the phone scans, and when the
# demo's shell gets TERM while wachat runs.  Every wait is bounded.  TAP.
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

# demo DELAY: the demo in a new 100x40 pane, the phone scanning DELAY
# seconds after the QR shows; sets $sid, the pane's session (every process
# of the demo is in it), and clears $tmp/status, where the pane's shell
# puts the demo's exit status.
demo() {
	rm -f "$tmp/status"
	tm new-session -d -s demo -x 100 -y 40 \
	    "env HOME='$tmp/home' TMPDIR='$tmp/t' LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    TERM=screen WACHAT_BUILD_DIR='$b' WACHAT_DEMO_SCAN_DELAY=$1 \
	    sh '$s/tools/demo.sh' 2>'$tmp/demo.err'; echo \$? >'$tmp/status'"
	sid=$(tm display-message -p -t demo '#{pane_pid}')
}

# wait_status: wait (30 s at most) for the demo's exit status.
wait_status() {
	i=0
	while [ ! -s "$tmp/status" ] && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat "$tmp/status" 2>/dev/null
}

# gone: once the pane's shell has ended (5 s at most), no process is left
# in the demo's session, nor any naming its temporary folder (1 s grace
# for a killed process to go).
gone() {
	i=0
	while kill -0 "$sid" 2>/dev/null && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt 10 ]; do
		if ! pgrep -s "$sid" >/dev/null 2>&1 && ! leftover; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "# left running:"
	ps -o pid,sid,args -s "$sid" 2>/dev/null | sed 's/^/#   /'
	pgrep -af "$tmp/t/" | sed 's/^/#   /'
	return 1
}

demo 2
check "the demo draws the QR first" \
    wait_pane 'scan this QR code with your phone' 300
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "the simulated phone scans it: the pane shows the account linked and connected" \
    wait_pane 'connected as \+15550000001' 300
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... with the chat panes and the help line" grep -q 'q quit' "$tmp/pane"
tm send-keys -t demo C-q
st=$(wait_status)
check "Ctrl-q ends the demo with status 0" [ "$st" = 0 ]
[ "$st" = 0 ] || diag "$tmp/demo.err"
check "no process of the demo is left running" gone
check "the demo's temporary folder is removed" \
    [ -z "$(ls -A "$tmp/t")" ]
check "nothing was written to HOME" [ -z "$(ls -A "$tmp/home")" ]

# q while the QR is still shown, the phone waiting to scan.
demo 600
check "again, with the phone waiting: the QR shows" \
    wait_pane 'scan this QR code with your phone' 300
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
tm send-keys -t demo q
st=$(wait_status)
check "q before the scan ends the demo with status 0" [ "$st" = 0 ]
check "... and no process of the demo (the phone's sleep) is left running" \
    gone
check "... the demo's temporary folder is removed" \
    [ -z "$(ls -A "$tmp/t")" ]

# TERM to the demo's shell while wachat runs stops everything.
demo 600
check "again: the QR shows" \
    wait_pane 'scan this QR code with your phone' 300
demo_pid=$(pgrep -P "$sid" -f 'tools/demo\.sh' | head -n 1)
check "the demo's shell is found (${demo_pid:-none})" [ -n "$demo_pid" ]
[ -n "$demo_pid" ] && kill -TERM "$demo_pid"
st=$(wait_status)
check "TERM to the demo's shell ends the demo (status ${st:-none}, 143 wanted)" \
    [ "$st" = 143 ]
[ "$st" = 143 ] || { capture; diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... wachat, the sim and the phone are gone" gone
check "... the demo's temporary folder is removed" \
    [ -z "$(ls -A "$tmp/t")" ]
check "... nothing was written to HOME" [ -z "$(ls -A "$tmp/home")" ]
echo "1..$n"
[ "$failed" -eq 0 ]
