#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A message sent the instant wachat dies: wachat in a detached 100x30
# tmux pane against wachat-sim, linked as alice; bob's phone writes, Tab
# opens his chat.  Twice: with the sim paused (SIGSTOP, so nothing is
# acked or answered) a message is typed and Enter pressed, and as soon as
# the pane shows it (stored, queued …) wachat gets SIGKILL; the sim goes
# on, and wachat is started again in the pane on the same data dir.  The
# first time wachat had not sent it yet (it waits for bob's devices); the
# second time it is on the wire, read by the sim after wachat died, so
# wachat sends it again after the restart (no ack recorded).  Each time
# the message reaches bob's phone exactly once (its inbox; the phone keeps
# a message id once, as a phone shows it once), shows once in the message
# pane, and its tick goes to delivered (✓✓).  TAP.  Every wait is
# bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

# a sim stopped by the test goes on, so that it can shut down
tmux_before_cleanup() {
	[ -n "$sim_pid" ] && kill -CONT "$sim_pid" 2>/dev/null
}

# The pane's command: wachat's pid goes to $tmp/pid (exec keeps it), its
# exit status to $tmp/status (written only when it exits by itself).
cat >"$tmp/run.sh" <<RUN
#!/bin/sh
echo \$\$ >'$tmp/pid'
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME'
exec '$W' --url "\$1" --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'
RUN

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# The pane stays when wachat is killed, to start it again in place.
tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
tm set-option -t wachat remain-on-exit on >/dev/null 2>&1

link_and_connect

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
failed_now && show

# dead PID: wait for PID to end (sim-lib's running: a zombie not reaped
# yet has ended); true when it has, else its state from /proc as TAP
# comments.
dead() {
	wait_for not_running "$1" && return 0
	echo "# pid $1 still runs: $(cat "/proc/$1/stat" 2>/dev/null)"
	grep -E '^(State|SigPnd|ShdPnd|SigBlk)' "/proc/$1/status" 2>/dev/null |
	    sed 's/^/#   /'
	return 1
}

# tick_of TEXT: the tick on the header line ("You HH:MM TICK") of our
# message TEXT in the message pane (right of the chat list's border):
# TEXT on the line right under such a header, so that TEXT still in the
# input line (Enter not read yet) is not taken for the message.
tick_of() {
	sed -n 's/^[^│]*│//p' "$tmp/pane" | awk -v m="$1" '
	    /^ *You [0-9][0-9]:[0-9][0-9]/ { t = $3; h = 1; next }
	    h && index($0, m) { print t; exit }
	    { h = 0 }'
}

# count_inbox TEXT: how many times bob's phone decrypted TEXT.
count_inbox() {
	ctl phone-inbox $B 2>/dev/null | grep -o "\"text\":\"$1\"" | wc -l
}

# inbox_has TEXT: bob's phone decrypted TEXT at least once.
inbox_has() {
	[ "$(count_inbox "$1")" -ge 1 ]
}

# shown_ours TEXT: a fresh capture shows TEXT as our message, with a tick.
shown_ours() {
	capture
	[ -n "$(tick_of "$1")" ]
}

# tick_is TEXT TICK: a fresh capture shows TEXT with TICK; $t holds the
# tick seen, $ticks every tick seen so far.
tick_is() {
	capture
	t=$(tick_of "$1")
	case " $ticks " in *" $t "*) ;; *) ticks="$ticks $t" ;; esac
	[ "$t" = "$2" ]
}

# kill_round NAME TEXT: with the sim paused (SIGSTOP: nothing wachat
# sends is acked or answered), TEXT is typed and Enter pressed; as soon
# as the pane shows it as ours (stored, its tick queued …) wachat gets
# SIGKILL; the sim goes on and reads whatever wachat wrote before it
# died; wachat starts again in the pane on the same data dir.  The text
# reaches bob's phone exactly once, shows once in the message pane, and
# its tick goes to delivered.
kill_round() {
	name=$1
	msg=$2
	pid1=$(cat "$tmp/pid" 2>/dev/null)
	check "$name: the pane's process is wachat (pid ${pid1:-?})" sh -c \
	    "[ -n '$pid1' ] && grep -q '$tmp/data' /proc/$pid1/cmdline"
	tm send-keys -t wachat -l "$msg"
	check "$name: the text shows in the input line" wait_pane "> $msg"
	failed_now && show
	kill -STOP "$sim_pid"
	tm send-keys -t wachat Enter
	wait_for shown_ours "$msg"
	kill -9 "$pid1" 2>/dev/null
	kill -CONT "$sim_pid"
	t0=$(tick_of "$msg")
	check "$name: Enter stores it: shown as ours, queued (tick '$t0'), then SIGKILL" \
	    [ "$t0" = "…" ]
	failed_now && show
	check "$name: wachat is gone" dead "$pid1"
	# What the sim got from the dead wachat (for the diagnostics).
	n0=$(ctl messages 2>/dev/null | grep -Eo "\"kind\":\"message\",[^}]*\"from\":\"$A:1@s.whatsapp.net\",\"to\":\"$B[:@]" | wc -l)
	c0=$(count_inbox "$msg")

	rm -f "$tmp/pid"
	tm respawn-pane -k -t wachat "sh '$tmp/run.sh' '$URL'"
	wait_grep "$tmp/pid" .
	pid2=$(cat "$tmp/pid" 2>/dev/null)
	check "$name: wachat starts again (pid ${pid2:-?}) and connects" \
	    wait_pane "connected as .*\\+$A"
	failed_now && show
	check "$name: bob's phone gets it (before the restart: bob's phone had it $c0 times; wachat's messages to bob routed: $n0)" \
	    wait_for inbox_has "$msg"

	# Its chat is open again (Tab if the restart shows none open: wachat
	# starts with no chat open, its list from the database).
	wait_pane '│'
	pane_has '^.*│ *bob [0-9]{2}:[0-9]{2}' || tm send-keys -t wachat Tab
	wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
	ticks=
	wait_for tick_is "$msg" "✓✓"
	check "$name: after the restart its tick is delivered (✓✓; seen:$ticks)" \
	    [ "$t" = "✓✓" ]
	# A duplicate would come with the resend, before bob's phone sent the
	# delivery receipt that made the tick ✓✓.
	c=$(count_inbox "$msg")
	ctl phone-inbox $B >"$tmp/inbox.json" 2>/dev/null
	dups=$(sed -n 's/.*"duplicates":\([0-9]*\).*/\1/p' "$tmp/inbox.json")
	again=$(sed -n 's/.*"resent":\([0-9]*\).*/\1/p' "$tmp/inbox.json")
	check "$name: ... bob's phone got it exactly once (inbox: $c; ids read again so far: ${again:-?}, Signal duplicates: ${dups:-?})" \
	    [ "$c" -eq 1 ]
	failed_now && diag "$tmp/inbox.json"
	n_msg=$(sed -n 's/^[^│]*│//p' "$tmp/pane" | grep -c -F "$msg")
	check "$name: ... and it shows once in the message pane ($n_msg lines)" \
	    [ "$n_msg" -eq 1 ]
	failed_now && show
}

# Cold: wachat's first message to bob (it asks the server for bob's
# devices first, which the paused sim does not answer).
kill_round "first message" "sent as wachat dies 🔪"
# Warm: wachat knows bob's devices and has sessions; the message goes on
# the wire at once, and the sim reads it after wachat died.
kill_round "second message" "and once more ✂"
n_you=$(grep -c '│ *You [0-9][0-9]:[0-9][0-9]' "$tmp/pane")
check "the pane holds our two messages, once each ($n_you of ours)" \
    [ "$n_you" -eq 2 ]

tm send-keys -t wachat C-q
check "Ctrl-q quits the restarted wachat" dead "$pid2"
failed_now && show
tm kill-server >/dev/null 2>&1

finish_sim_tmux
