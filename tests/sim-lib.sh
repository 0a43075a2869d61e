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

# The deadline of every wait, in tenths of a second: 60 s, generous on
# purpose (a loaded machine, a sanitizer build); WACHAT_TEST_WAIT changes
# it.  A wait ends as soon as what it waits for is there.
WAIT=${WACHAT_TEST_WAIT:-600}

# need TOOL...: each TOOL is a command on the PATH; else one failing TAP
# line per missing tool, with the reason, and the script ends (exit 1):
# a check whose tool is missing fails, it never passes unchecked.
need() {
	nd_missing=
	for nd_t in "$@"; do
		command -v "$nd_t" >/dev/null 2>&1 || nd_missing="$nd_missing $nd_t"
	done
	[ -z "$nd_missing" ] && return 0
	for nd_t in $nd_missing; do
		not_ok "the $nd_t command is there (sh tools/setup.sh installs it)"
	done
	echo "1..$n"
	exit 1
}

# wait_cmd TENTHS CMD...: until CMD (a command or a shell function)
# succeeds, TENTHS tenths of a second at most by the clock (at least one
# try, however loaded the machine); returns 1 at the deadline.  Not for
# nesting: CMD must not call wait_cmd itself.
wait_cmd() {
	wc_end=$(($(date +%s) + ($1 + 9) / 10))
	shift
	while :; do
		"$@" && return 0
		[ "$(date +%s)" -lt "$wc_end" ] || return 1
		sleep 0.1
	done
}

# wait_for CMD...: wait_cmd with the default deadline.
wait_for() {
	wait_cmd "$WAIT" "$@"
}

# has_line FILE REGEX: FILE has a line matching REGEX (grep -E).
has_line() {
	grep -Eq -- "$2" "$1" 2>/dev/null
}

# mount_sh ARG...: sh -c ARG... where it may mount file systems, and
# have them gone when it ends: in a mount namespace of its own (unshare
# -m as root, unshare -rm through a user namespace otherwise).  In a
# chroot the kernel allows neither (no user namespace there, and its /
# is no mount point to make private): as root it runs right here, and
# each file system it mounted under $tmp is unmounted when it ends.
mount_sh() {
	if [ "$(id -u)" -ne 0 ]; then
		unshare -rm sh -c "$@"
	elif unshare -m true 2>/dev/null; then
		unshare -m sh -c "$@"
	else
		sh -c "$@"
		ms_rc=$?
		awk -v t="$tmp/" 'index($5, t) == 1 { print $5 }' \
		    /proc/self/mountinfo | sort -r | while read -r ms_m; do
			umount "$ms_m"
		done
		return $ms_rc
	fi
}

# wait_grep FILE REGEX [TENTHS]: wait until FILE has a line matching
# REGEX.
wait_grep() {
	wait_cmd "${3:-$WAIT}" has_line "$1" "$2"
}

# count_lines FILE REGEX: how many lines of FILE match REGEX (grep -E);
# "missing" when FILE is not there, so that a comparison with a number
# fails instead of reading the missing file as none.
count_lines() {
	if [ -f "$1" ]; then
		grep -c -E -- "$2" "$1"
	else
		echo missing
	fi
	return 0
}

# at_least FILE REGEX N: N lines of FILE or more match REGEX.
at_least() {
	[ "$(count_lines "$1" "$2")" -ge "$3" ] 2>/dev/null
}

# wait_count FILE REGEX N [TENTHS]: wait until N lines of FILE match.
wait_count() {
	wait_cmd "${4:-$WAIT}" at_least "$1" "$2" "$3"
}

# no_line FILE REGEX: FILE is there and no line of it matches REGEX.
no_line() {
	[ -f "$1" ] && ! grep -Eq -- "$2" "$1"
}

# ctl_has REGEX CTL-ARG...: the ctl command's output matches REGEX; the
# output is in $tmp/wc.
ctl_has() {
	ch_re=$1
	shift
	ctl "$@" >"$tmp/wc" 2>&1
	grep -Eq -- "$ch_re" "$tmp/wc"
}

# wait_ctl REGEX CTL-ARG...: poll the ctl command until its output
# matches REGEX; the last output is in $tmp/wc.
wait_ctl() {
	wait_cmd "$WAIT" ctl_has "$@"
}

# running PID: the process runs (a zombie not reaped yet does not).
running() {
	[ -r "/proc/$1/stat" ] &&
	    ! sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^[ZX]'
}

# not_running PID
not_running() {
	! running "$1"
}

# wait_pid PID [TENTHS]: wait for a background process to end, then kill
# it; sets $status to its exit status.
wait_pid() {
	wait_cmd "${2:-$WAIT}" not_running "$1"
	kill "$1" 2>/dev/null
	wait "$1"
	status=$?
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$1\\>//")
}

# pane_is COLSxROWS: tmux's pane of the window "wachat" has that size.
pane_is() {
	[ "$(tm display-message -p -t wachat '#{pane_width}x#{pane_height}' 2>/dev/null)" = "$1" ]
}

# wait_size COLSxROWS [TENTHS]: until tmux has resized the pane of the
# window "wachat" (and so sent wachat its SIGWINCH): resize-window returns
# before it has.  Uses the caller's tm().
wait_size() {
	wait_cmd "${2:-$WAIT}" pane_is "$1"
}

# queued_after FILE N [TENTHS]: until FILE (a driver's output) holds more
# than N "queued ID" lines; prints the newest ID.  Count the lines before
# the send: a wait for any "queued" line would see an earlier message's.
queued_after() {
	wait_cmd "${3:-$WAIT}" at_least "$1" '^queued ' $(($2 + 1)) || return 1
	sed -n 's/^queued //p' "$1" | tail -n 1
}

# sim_start [OPTION]...: start the sim; sets PORT, APORT, URL, ADMIN.
# test_cert: a self-signed certificate for localhost and 127.0.0.1 in
# $tmp/cert.pem, its key in $tmp/key.pem; a Bail out! when openssl
# cannot make one.
test_cert() {
	if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
	    -subj /CN=localhost \
	    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
	    >"$tmp/openssl.log" 2>&1; then
		echo "Bail out! cannot make a test certificate"
		diag "$tmp/openssl.log"
		exit 1
	fi
}

sim_start() {
	# Empty the last sim's output first: the redirection below happens in
	# the background job, and until it does the wait could read the old
	# file's ports.
	: >"$tmp/sim.out"
	"$SIM" --port 0 --admin-port 0 --log "$tmp/sim.log" "$@" \
	    >"$tmp/sim.out" 2>"$tmp/sim.err" &
	sim_pid=$!
	if ! wait_grep "$tmp/sim.out" '^admin-port='; then
		diag "$tmp/sim.err"
		return 1
	fi
	PORT=$(sed -n 's/^port=//p' "$tmp/sim.out")
	APORT=$(sed -n 's/^admin-port=//p' "$tmp/sim.out")
	URL="ws://127.0.0.1:$PORT/ws/chat"
	ADMIN="http://127.0.0.1:$APORT"
}

# sim_start_tls [OPTION...]: a test certificate (test_cert), the sim
# started with it for TLS and its media host, $URL the wss:// one; bails
# out when the sim does not start.
sim_start_tls() {
	test_cert
	if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" \
	    "$@"; then
		echo "Bail out! wachat-sim did not start"
		exit 1
	fi
	URL="wss://127.0.0.1:$PORT/ws/chat"
}

ctl() {
	"$SIM" ctl --admin "$ADMIN" "$@"
}

# sim_stop: ask the sim to shut down; sets $status to its exit status.
sim_stop() {
	ctl shutdown >/dev/null 2>&1
	wait_pid "$sim_pid"
	sim_pid=
}

# driver OUT [OPTION]...: run wa-conn-driver against the sim, trusting
# the test root, output in OUT; returns its exit status.
driver() {
	out=$1
	shift
	"$DRIVER" --url "$URL" --root "$ROOT_PUB" --deadline-ms 60000 "$@" \
	    >"$out" 2>"$out.err"
}

# driver_bg OUT [OPTION]...: the same in the background; sets $dpid.
driver_bg() {
	out=$1
	shift
	"$DRIVER" --url "$URL" --root "$ROOT_PUB" --deadline-ms 60000 "$@" \
	    >"$out" 2>"$out.err" &
	dpid=$!
	bg_pids="$bg_pids $dpid"
}

finish_tap() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
