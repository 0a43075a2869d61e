# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the chat-screen tests that drive wachat in a detached tmux
# pane against wachat-sim (after tests/sim-lib.sh, which gives $tmp,
# cleanup, diag, check and the sim): a HOME of their own, the pane and its
# captures, and what to show when a check fails.  The pane is the tmux
# session "wachat" on the socket $tmp/tmux.sock.

need tmux python3
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

# pane_has REGEX...: a fresh capture shows, for each REGEX, a line
# matching it (the whole frame, not the first rows drawn of it).
pane_has() {
	capture
	for ph_re in "$@"; do
		grep -Eq -- "$ph_re" "$tmp/pane" || return 1
	done
}

# pane_lacks REGEX: a fresh capture has no line matching REGEX.
pane_lacks() {
	capture
	! grep -Eq -- "$1" "$tmp/pane"
}

# wait_pane REGEX [TENTHS]: until the pane shows a line matching REGEX.
wait_pane() {
	wait_cmd "${2:-$WAIT}" pane_has "$1"
}

# wait_panes REGEX...: until the pane shows a line for each REGEX at once.
wait_panes() {
	wait_cmd "$WAIT" pane_has "$@"
}

# wait_gone REGEX [TENTHS]: until no line of the pane matches REGEX.
wait_gone() {
	wait_cmd "${2:-$WAIT}" pane_lacks "$1"
}

# joined: the pane's text as one line, each row trimmed, rows joined by
# one space (a text wrapped over rows reads whole), in $tmp/joined.
joined() {
	sed -e 's/^ *//' -e 's/ *$//' "$tmp/pane" | grep -v '^$' |
	    tr '\n' ' ' >"$tmp/joined"
}

# joined_has TEXT...: a fresh capture, joined, holds each fixed TEXT.
joined_has() {
	capture
	joined
	for jh_t in "$@"; do
		grep -Fq -- "$jh_t" "$tmp/joined" || return 1
	done
}

# joined_re REGEX...: a fresh capture, joined, matches each REGEX.
joined_re() {
	capture
	joined
	for jr_re in "$@"; do
		grep -Eq -- "$jr_re" "$tmp/joined" || return 1
	done
}

# wait_joined TEXT [TENTHS]: until the pane shows TEXT (fixed string),
# wrapped over rows or not.
wait_joined() {
	wait_cmd "${2:-$WAIT}" joined_has "$1"
}

# wait_joined_re REGEX...: until the joined pane matches each REGEX.
wait_joined_re() {
	wait_cmd "$WAIT" joined_re "$@"
}

# tty_drained: nothing is left unread in the pane's terminal.
tty_drained() {
	python3 -c '
import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
n = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
sys.exit(0 if n == 0 else 1)' "$ir_tty"
}

# input_read: until wachat has read every byte sent to its terminal, and
# a moment more.  An Esc with a key right behind it in the terminal's
# queue reads as Alt-key, as in every curses program: after an Esc whose
# effect does not show on the pane, wait with this before the next key.
input_read() {
	ir_tty=$(tm display-message -p -t wachat '#{pane_tty}')
	wait_for tty_drained || return 1
	sleep 0.2
}

# pane_wachat_pid: the pid of the wachat the session "wachat" runs (the
# pane's shell's child), for a test that kills it; "" when none.
pane_wachat_pid() {
	pgrep -P "$(tm list-panes -t wachat -F '#{pane_pid}')" 2>/dev/null |
	    head -n 1
}

# exit_status: wait for the exit status the pane's shell writes to
# $tmp/status when wachat ends; prints it (nothing at the deadline).
exit_status() {
	wait_grep "$tmp/status" . && cat "$tmp/status"
}

# start_pane [OPTION VALUE...]: wachat, with these options after the
# sim's settings, in the tmux session "wachat" (100x30), its stderr in
# $tmp/w.err, its exit status written to $tmp/status when it ends; in
# the locale $PANE_LOCALE (default C.UTF-8) with TERM=$PANE_TERM (default
# screen-256color).
start_pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=${PANE_LOCALE:-C.UTF-8} LC_ALL=${PANE_LOCALE:-C.UTF-8} \
	    TERM=${PANE_TERM:-screen-256color} \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' $* 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}

# link_and_connect: the pane's wachat (started with --qr-file $tmp/qr)
# is linked to account $A by the sim's phone scanning its QR code; checks
# that it connects and waits until its prekeys are uploaded.
link_and_connect() {
	wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
	ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
	check "wachat links and connects" wait_pane "connected as .*\\+$A"
	failed_now && show
	wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'
}

# sent PN TEXT FILE: PN's phone sends TEXT to us ($AJ); prints its id
# (the sim's answer in FILE).
sent() {
	ctl phone-send "$1" $AJ "$2" >"$3" 2>&1
	sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$3" | head -n 1
}

# receipt PN ID TYPE: PN's phone got a receipt of TYPE for ID from us.
receipt() {
	ctl_has "\"id\":\"$2\",\"from\":\"$A:1@s.whatsapp.net\",\"type\":\"$3\"" \
	    phone-inbox "$1"
}

# no_read PN ID: PN's phone has no read receipt for ID (and its inbox
# could be read).
no_read() {
	ctl phone-inbox "$1" >"$tmp/inbox" 2>&1 && [ -s "$tmp/inbox" ] &&
	    ! grep -q "\"id\":\"$2\",\"from\":\"[^\"]*\",\"type\":\"read\"" \
	    "$tmp/inbox"
}

# pick_chat NAME: the chat picker (Ctrl-n) opened, NAME typed, and
# Enter once the query line shows it ("> NAME"; NAME is a regular
# expression there, as in wait_pane): the chat named NAME opens.
pick_chat() {
	tm send-keys -t wachat C-n
	wait_pane 'Open a chat' >/dev/null
	tm send-keys -t wachat -l "$1"
	wait_pane "> $1" >/dev/null
	tm send-keys -t wachat Enter
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

# finish_sim_tmux: stop the sim (its exit status checked), look for a
# sanitizer report in every *.err of $tmp and in wachat's log, and end
# the TAP output.  The last thing a sim and tmux test does.
finish_sim_tmux() {
	sim_stop
	check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
	if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err "$LOG" 2>/dev/null
	then
		not_ok "no sanitizer report from wachat-sim or wachat"
		for f in "$tmp"/*.err "$LOG"; do
			diag "$f"
		done
	else
		ok "no sanitizer report from wachat-sim or wachat"
	fi
	finish_tap
}
