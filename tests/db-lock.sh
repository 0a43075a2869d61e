#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Another SQLite client on the database of a running wachat (issue 15,
# fixlock point 1): after wachat's background integrity check has run,
#  1. a plain read with sqlite3 leaves wachat.db-wal and -shm in place,
#     and a message bob's phone then sends is in the database: after
#     kill -9 and a restart, `wachat history` has it exactly once;
#  2. sqlite3 holding a write lock (BEGIN IMMEDIATE) for 20 s, longer
#     than wachat's busy timeout, while bob sends: the message is stored
#     all the same (shown once stored), the WAL is still there after the
#     holder ends, and after kill -9 and a restart it is in the history
#     exactly once.
# POSIX drops every fcntl lock a process holds on a file when it closes
# any fd of that file: a raw open()/close() of wachat.db inside wachat
# makes the next outside connection think it is the last, checkpoint,
# and delete the WAL that wachat goes on writing into.  TAP.  Every wait
# is bounded; wachat, sqlite3 and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
command -v sqlite3 >/dev/null 2>&1 || not_ok "sqlite3 is installed"
D="$tmp/data"

# run_wachat OUT LOG: wachat on D in the background; sets wpid.
run_wachat() {
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$D" \
	    --qr-file "$tmp/qr" --log-file "$2" </dev/null >"$1" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

# deleted_fds: wachat's fds on a deleted wachat.db* file (none: empty).
deleted_fds() {
	ls -l "/proc/$wpid/fd" 2>/dev/null | grep 'wachat\.db.*(deleted)'
}

# in_history TEXT: `wachat history` with bob lists TEXT exactly once.
in_history() {
	"$W" history --data-dir "$D" +$B --limit 0 >"$tmp/hist" 2>&1
	[ "$(grep -c ": $1\$" "$tmp/hist")" -eq 1 ]
}

# crash_restart N: kill -9 wachat, start it again (output w.N, log
# log.N), wait until it is connected.
crash_restart() {
	kill -9 "$wpid"
	wait "$wpid" 2>/dev/null
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$wpid\\>//")
	run_wachat "$tmp/w.$1" "$tmp/log.$1"
	wait_grep "$tmp/w.$1" "^connected as \\+$A\$" 300
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
run_wachat "$tmp/w" "$tmp/log"
wait_grep "$tmp/qr" 'https://' 300
ctl scan-qr "$(cat "$tmp/qr")" >/dev/null 2>&1
check "wachat links and connects" wait_grep "$tmp/w" "^connected as \\+$A\$" 300 ||
    diag "$tmp/w"
wait_grep "$tmp/log" 'prekeys: event 6, [0-9]+ keys' 300
check "the background integrity check has run" \
    wait_grep "$tmp/log" 'integrity check: ok' 300 || diag "$tmp/log"

# 1. a plain read by another client
check "sqlite3 reads the database while wachat runs" \
    sh -c "sqlite3 '$D/wachat.db' 'SELECT count(*) FROM chat;' >/dev/null"
ctl phone-send $B $AJ "lock check read" >/dev/null 2>&1
check "bob's message arrives" wait_grep "$tmp/w" 'from .*: lock check read$' 300 ||
    diag "$tmp/w"
check "... wachat.db-wal and -shm are still there" \
    sh -c "[ -f '$D/wachat.db-wal' ] && [ -f '$D/wachat.db-shm' ]"
check "... and wachat has no deleted wachat.db* file open" \
    [ -z "$(deleted_fds)" ] || deleted_fds | sed 's/^/# /'
crash_restart 1
check "after kill -9 and a restart, the history has it exactly once" \
    in_history "lock check read" || diag "$tmp/hist"

# 2. a write lock held for longer than the busy timeout
wait_grep "$tmp/log.1" 'integrity check: ok' 300
ctl phone-send $B $AJ "lock check before" >/dev/null 2>&1
wait_grep "$tmp/w.1" 'from .*: lock check before$' 300
{ echo 'BEGIN IMMEDIATE;'; echo "SELECT 'locked';"; sleep 20
    echo 'COMMIT;'; } | sqlite3 "$D/wachat.db" >"$tmp/lock.out" 2>&1 &
lpid=$!
bg_pids="$bg_pids $lpid"
wait_grep "$tmp/lock.out" '^locked$' 100
ctl phone-send $B $AJ "lock check write" >/dev/null 2>&1
check "with a write lock held 20 s, bob's message arrives all the same" \
    wait_grep "$tmp/w.1" 'from .*: lock check write$' 600 || {
	diag "$tmp/w.1"; diag "$tmp/log.1"; }
wait_pid "$lpid" 300
check "... the holder ends (status $status), wachat.db-wal and -shm are still there" \
    sh -c "[ $status -eq 0 ] && [ -f '$D/wachat.db-wal' ] && [ -f '$D/wachat.db-shm' ]"
check "... and wachat has no deleted wachat.db* file open" \
    [ -z "$(deleted_fds)" ] || deleted_fds | sed 's/^/# /'
crash_restart 2
check "after kill -9 and a restart, the history has it exactly once" \
    in_history "lock check write" || diag "$tmp/hist"
check "... and the first message still once" in_history "lock check read"
check "wachat runs on" kill -0 "$wpid"
wait_pid "$wpid" 1
sim_stop
finish_tap
