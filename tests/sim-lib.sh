# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the tests/sim-*.sh scripts (sourced): start wachat-sim on free
# loopback ports, talk to its admin interface, wait for output with a
# deadline, count TAP results, and stop everything on exit (no orphans).
b=${top_builddir:-.}
s=${top_srcdir:-.}
SIM="$b/tests/sim/wachat-sim"
DRIVER="$b/tests/wa-conn-driver"
ROOT_FILE="$s/tests/sim/root-key.txt"
ROOT_PUB=$(sed -n 's/^public=//p' "$ROOT_FILE")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-sim-test.XXXXXX")
sim_pid=
bg_pids=
n=0
failed=0

cleanup() {
	for p in $bg_pids $sim_pid; do
		kill "$p" 2>/dev/null
	done
	for p in $bg_pids $sim_pid; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}

# check DESCRIPTION COMMAND...: ok when the command succeeds; returns 1
# after a "not ok", so that `check ... || diag FILE` shows why.
check() {
	d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; return 1; fi
}

# Print a file as TAP diagnostics.
diag() {
	[ -f "$1" ] && sed 's/^/# /' "$1"
}

# wait_grep FILE REGEX [TENTHS]: wait until FILE has a line matching
# REGEX (default deadline 10 s).
wait_grep() {
	i=0
	while [ "$i" -lt "${3:-100}" ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_pid PID [TENTHS]: wait for a background process to end (default
# 10 s), then kill it; sets $status to its exit status.
wait_pid() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ "$i" -lt "${2:-100}" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill "$1" 2>/dev/null
	wait "$1"
	status=$?
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$1\\>//")
}

# wait_size COLSxROWS [TENTHS]: until tmux has resized the pane of the
# window "wachat" (and so sent wachat its SIGWINCH): resize-window returns
# before it has.  Uses the caller's tm().
wait_size() {
	ws_i=0
	while [ "$ws_i" -lt "${2:-50}" ]; do
		[ "$(tm display-message -p -t wachat '#{pane_width}x#{pane_height}' 2>/dev/null)" = "$1" ] &&
		    return 0
		sleep 0.1
		ws_i=$((ws_i + 1))
	done
	return 1
}

# queued_after FILE N [TENTHS]: until FILE (a driver's output) holds more
# than N "queued ID" lines; prints the newest ID.  Count the lines before
# the send: a wait for any "queued" line would see an earlier message's.
queued_after() {
	qa_i=0
	while [ "$(grep -c '^queued ' "$1" 2>/dev/null)" -le "$2" ]; do
		qa_i=$((qa_i + 1))
		[ "$qa_i" -gt "${3:-50}" ] && return 1
		sleep 0.1
	done
	sed -n 's/^queued //p' "$1" | tail -n 1
}

# sim_start [OPTION]...: start the sim; sets PORT, APORT, URL, ADMIN.
sim_start() {
	# Empty the last sim's output first: the redirection below happens in
	# the background job, and until it does the wait could read the old
	# file's ports.
	: >"$tmp/sim.out"
	"$SIM" --port 0 --admin-port 0 --log "$tmp/sim.log" "$@" \
	    >"$tmp/sim.out" 2>"$tmp/sim.err" &
	sim_pid=$!
	if ! wait_grep "$tmp/sim.out" '^admin-port=' 100; then
		diag "$tmp/sim.err"
		return 1
	fi
	PORT=$(sed -n 's/^port=//p' "$tmp/sim.out")
	APORT=$(sed -n 's/^admin-port=//p' "$tmp/sim.out")
	URL="ws://127.0.0.1:$PORT/ws/chat"
	ADMIN="http://127.0.0.1:$APORT"
}

ctl() {
	"$SIM" ctl --admin "$ADMIN" "$@"
}

# sim_stop: ask the sim to shut down; sets $status to its exit status.
sim_stop() {
	ctl shutdown >/dev/null 2>&1
	wait_pid "$sim_pid" 100
	sim_pid=
}

# driver OUT [OPTION]...: run wa-conn-driver against the sim, trusting
# the test root, output in OUT; returns its exit status.
driver() {
	out=$1
	shift
	"$DRIVER" --url "$URL" --root "$ROOT_PUB" --deadline-ms 10000 "$@" \
	    >"$out" 2>"$out.err"
}

# driver_bg OUT [OPTION]...: the same in the background; sets $dpid.
driver_bg() {
	out=$1
	shift
	"$DRIVER" --url "$URL" --root "$ROOT_PUB" --deadline-ms 15000 "$@" \
	    >"$out" 2>"$out.err" &
	dpid=$!
	bg_pids="$bg_pids $dpid"
}

finish_tap() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
