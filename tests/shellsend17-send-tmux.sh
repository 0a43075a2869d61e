#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat send CHAT TEXT (issue 17, the shell), against wachat-sim.  With
# wachat running linked as alice in a tmux pane, `wachat send` (no
# terminal, as over SSH) hands the message over through the data dir's
# spool (0700, emptied again): it exits 0 once the server acked it, bob's
# phone has it and the running wachat's pane shows it; CHAT as a +number
# and as a name.  With no wachat running, `wachat send` connects with the
# same settings itself, sends, waits for the ack and exits 0; bob's
# phone has it.  With the server unreachable it gives up after
# --timeout with exit 8 and says the message stays in the outbox, where
# it is (queued, in the database), and the next wachat sends it.  The
# data dir's lock held by another process that takes nothing: the
# message waits in the spool as a 0600 file, is taken back after the
# timeout (exit 8, nothing sent), or at once on SIGINT.  A running
# wachat removes an answer left in the spool for an hour.  A
# usage error exits 1, a chat nobody has 2, neither leaving anything in
# the spool.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
RELAY="${top_srcdir:-.}/tests/tcp-relay.py"

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# start_pane URL: wachat in the tmux pane.
start_pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$1' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}
# quit_pane: Ctrl-q, and wachat's exit status checked.
quit_pane() {
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "Ctrl-q quits wachat cleanly: exit 0" [ "$st" = 0 ]
	failed_now && { show; diag "$tmp/w.err"; }
	tm kill-server >/dev/null 2>&1
}
# send OUT ARG...: wachat send ARG... as over SSH (no terminal), stdout
# in OUT, stderr in OUT.err; $st its exit status.
send() {
	so=$1
	shift
	env LC_ALL=C.UTF-8 "$W" send --data-dir "$tmp/data" "$@" \
	    >"$so" 2>"$so.err" </dev/null
	st=$?
}
# inbox_has TEXT: bob's phone received a message with TEXT.
inbox_has() {
	ctl phone-inbox $B 2>/dev/null | grep -qF "\"text\":\"$1\""
}
# spool_empty: the spool holds no file (of this test's sends).
spool_empty() {
	[ -z "$(ls -A "$tmp/data/spool" 2>/dev/null)" ]
}

start_pane "$URL"
link_and_connect
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's message comes in" wait_pane 'hello from bob'
failed_now && show

# --- a wachat runs: an answer no sender read, an hour old, is removed;
# a new one is left to its sender
mkdir -m 700 "$tmp/data/spool" 2>/dev/null
: >"$tmp/data/spool/1-1-0123456789abcdef.ack"
touch -d '2 hours ago' "$tmp/data/spool/1-1-0123456789abcdef.ack"
: >"$tmp/data/spool/2-2-0123456789abcdef.ack"
check "the running wachat removes a spool answer left over for an hour" \
    wait_for sh -c "[ ! -e '$tmp/data/spool/1-1-0123456789abcdef.ack' ]"
check "... not a new one" [ -e "$tmp/data/spool/2-2-0123456789abcdef.ack" ]
rm -f "$tmp/data/spool/2-2-0123456789abcdef.ack"

# --- a wachat runs: handed over
send "$tmp/s1" "+$B" "handed over"
check "with wachat running, send +BOB exits 0 ($st)" [ "$st" -eq 0 ]
check "... and says it was sent" has_line "$tmp/s1" "^wachat: sent to \\+$B\$"
failed_now && { diag "$tmp/s1"; diag "$tmp/s1.err"; show; }
check "... bob's phone has it" wait_for inbox_has "handed over"
check "... the running wachat took it: its log says so" \
    has_line "$LOG" 'handed over: .* queued as '
check "... its pane shows it" wait_pane 'handed over'
check "... the spool is a 0700 directory, empty again" sh -c "
    [ \"\$(stat -c %a '$tmp/data/spool')\" = 700 ] &&
    [ -z \"\$(ls -A '$tmp/data/spool')\" ]"
failed_now && show

send "$tmp/s2" bob two words
check "CHAT as a name, TEXT as several words: exit 0 ($st)" [ "$st" -eq 0 ]
check "... bob's phone has the words joined" wait_for inbox_has "two words"
failed_now && { diag "$tmp/s2.err"; }

send "$tmp/s3" bob
check "no TEXT: a usage error, exit 1 ($st)" [ "$st" -eq 1 ]
check "... said" has_line "$tmp/s3.err" 'wachat send: takes a CHAT and the TEXT'
send "$tmp/s4" nobody "hi"
check "a chat nobody has: exit 2 ($st)" [ "$st" -eq 2 ]
check "... said" has_line "$tmp/s4.err" "no chat 'nobody'"
check "... and nothing left in the spool" spool_empty
failed_now && { diag "$tmp/s3.err"; diag "$tmp/s4.err"; }
quit_pane

# --- the lock held by a process that is no wachat (an older one, say):
# the message waits in the spool (0600), is taken back, nothing is sent
python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(120)' "$tmp/data" >"$tmp/lock.out" 2>&1 &
lpid=$!
bg_pids="$bg_pids $lpid"
check "another process holds the data dir's lock" \
    wait_grep "$tmp/lock.out" '^locked$'
env LC_ALL=C.UTF-8 "$W" send --data-dir "$tmp/data" --timeout 3 bob \
    "never taken" >"$tmp/s7" 2>"$tmp/s7.err" </dev/null &
spid=$!
bg_pids="$bg_pids $spid"
# msg_file: the spool's TOKEN.msg, or nothing
msg_file() {
	ls "$tmp/data/spool/"*.msg 2>/dev/null | head -n 1
}
check "the data dir locked: send puts the message in the spool" \
    wait_for sh -c "ls '$tmp/data/spool/'*.msg >/dev/null 2>&1"
m=$(msg_file)
check "... as a file of mode 0600" [ "$(stat -c %a "$m" 2>/dev/null)" = 600 ]
check "... saying what and to whom" sh -c "
    printf 'wachat-send 1\n%s\n%s' '$B@s.whatsapp.net' 'never taken' |
    cmp -s - '$m'"
wait_pid "$spid"
check "... not taken within --timeout 3: exit 8 ($status)" [ "$status" -eq 8 ]
check "... saying nothing was sent" \
    has_line "$tmp/s7.err" "did not take the message within 3 s.*nothing was sent"
check "... and taking it back: the spool is empty" spool_empty
failed_now && { diag "$tmp/s7.err"; ls -la "$tmp/data/spool" | sed 's/^/# /'; }
env LC_ALL=C.UTF-8 "$W" send --data-dir "$tmp/data" bob "interrupted" \
    >"$tmp/s8" 2>"$tmp/s8.err" </dev/null &
spid=$!
bg_pids="$bg_pids $spid"
wait_for sh -c "ls '$tmp/data/spool/'*.msg >/dev/null 2>&1"
kill -INT "$spid"
wait_pid "$spid"
check "SIGINT while it waits: exit 8 ($status), nothing was sent" sh -c "
    [ $status -eq 8 ] && grep -q 'interrupted; nothing was sent' '$tmp/s8.err'"
check "... the message taken back: the spool is empty" spool_empty
failed_now && diag "$tmp/s8.err"
kill "$lpid" 2>/dev/null
wait_pid "$lpid"

# --- none runs: this send connects itself
send "$tmp/s5" bob "no wachat running" --url "$URL" --root-key "$ROOT_PUB"
check "with no wachat running, send connects and exits 0 ($st)" [ "$st" -eq 0 ]
check "... and says it was sent" has_line "$tmp/s5" '^wachat: sent to bob$'
failed_now && { diag "$tmp/s5"; diag "$tmp/s5.err"; tail -n 20 "$LOG" | sed 's/^/# log: /'; }
check "... bob's phone has it" wait_for inbox_has "no wachat running"
check "... the spool is empty again" spool_empty

# --- the server unreachable: gives up, the message stays in the outbox
RP=$(python3 "$RELAY" free-port)
send "$tmp/s6" bob "while offline" --url "ws://127.0.0.1:$RP/ws/chat" \
    --root-key "$ROOT_PUB" --timeout 3
check "the server unreachable: send gives up, exit 8 ($st)" [ "$st" -eq 8 ]
check "... saying the message stays in the outbox" \
    has_line "$tmp/s6.err" 'not acked the message to bob within 3 s.*stays in the outbox'
failed_now && { diag "$tmp/s6"; diag "$tmp/s6.err"; }
check "... it is in the database, queued" python3 -c '
import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
r = c.execute("SELECT state FROM message WHERE from_me = 1 AND "
              "text = ?", ("while offline",)).fetchall()
sys.exit(0 if r == [(0,)] else 1)' "$tmp/data/wachat.db"
check "... it has not reached bob's phone" eval '! inbox_has "while offline"'
start_pane "$URL"
check "the next wachat connects" wait_pane "connected as .*\\+$A"
check "... and sends it: bob's phone has it" wait_for inbox_has "while offline"
check "... but not the one taken back from the spool" \
    eval '! inbox_has "never taken"'
failed_now && show
quit_pane

# --- --help, in English and German
"$W" --help >"$tmp/help" 2>&1
check "--help names send and history --follow" sh -c "
    grep -qxF '  wachat send CHAT TEXT... [--timeout SECONDS]' '$tmp/help' &&
    grep -qxF '  wachat history CHAT --follow' '$tmp/help' &&
    grep -qF 'stays in the outbox; 9: refused' '$tmp/help'"
mkdir -p "$tmp/locale/de/LC_MESSAGES" &&
    msgfmt -c -o "$tmp/locale/de/LC_MESSAGES/wachat.mo" \
    "${top_srcdir:-.}/po/de.po"
env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$tmp/locale" \
    "$W" --help >"$tmp/help.de" 2>&1
check "... in German under LANG=de_DE.UTF-8" sh -c "
    grep -qF 'TEXT an CHAT senden und auf die Bestätigung des' '$tmp/help.de' &&
    grep -qF 'danach jede neue Nachricht, sobald sie gespeichert' '$tmp/help.de' &&
    ! grep -qF 'wait for the server' '$tmp/help.de'"
failed_now && diag "$tmp/help.de"

finish_sim_tmux
