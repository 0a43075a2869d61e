# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the chat-screen tests that drive wachat in a detached tmux
# pane against wachat-sim (after tests/sim-lib.sh, which gives $tmp,
# cleanup, diag, check and the sim): a HOME of their own, the pane and its
# captures, and what to show when a check fails.  The pane is the tmux
# session "wachat" on the socket $tmp/tmux.sock.

if ! command -v tmux >/dev/null 2>&1; then
	echo "Bail out! tmux is not installed (sh tools/setup.sh installs it)"
	exit 1
fi
SOCK="$tmp/tmux.sock"
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME TMUX
mkdir -m 700 "$HOME"
LOG="$HOME/.local/state/wachat/wachat.log"

tm() {
	tmux -u -S "$SOCK" -f /dev/null "$@"
}

# Run by the EXIT trap before tmux and the sim go; a test may redefine it.
tmux_before_cleanup() {
	:
}
trap 'tmux_before_cleanup; tm kill-server >/dev/null 2>&1; cleanup' EXIT

capture() {
	tm capture-pane -p -t wachat >"$tmp/pane" 2>/dev/null
}

# wait_pane REGEX [TENTHS]: until the pane shows a line matching REGEX.
wait_pane() {
	i=0
	while [ "$i" -lt "${2:-100}" ]; do
		capture
		grep -Eq -- "$1" "$tmp/pane" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_gone REGEX [TENTHS]: until no line of the pane matches REGEX.
wait_gone() {
	i=0
	while [ "$i" -lt "${2:-100}" ]; do
		capture
		grep -Eq -- "$1" "$tmp/pane" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# input_read: until wachat has read every byte sent to its terminal, and
# a moment more.  An Esc with a key right behind it in the terminal's
# queue reads as Alt-key, as in every curses program: after an Esc whose
# effect does not show on the pane, wait with this before the next key.
input_read() {
	ir_tty=$(tm display-message -p -t wachat '#{pane_tty}')
	wait_cmd 100 python3 -c '
import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
n = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
sys.exit(0 if n == 0 else 1)' "$ir_tty" || return 1
	sleep 0.2
}

# wait_cmd TENTHS CMD...: until CMD succeeds.
wait_cmd() {
	wc_max=$1
	shift
	i=0
	while [ "$i" -lt "$wc_max" ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# failed_now: a check failed since the last call (then show what led to it).
seen_failed=0
failed_now() {
	[ "$failed" -gt "$seen_failed" ] || return 1
	seen_failed=$failed
}

# show: the pane and the end of wachat's log, as TAP comments.
show() {
	capture
	diag "$tmp/pane"
	tail -n 30 "$LOG" 2>/dev/null | sed 's/^/# log: /'
}
