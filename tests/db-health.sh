#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What is wrong with the database, said in words with its exit status
# (issue 15 points 8 and 9; doc/wachat.1 EXIT STATUS), no server needed
# (the URL refuses):
#  - an empty (0 byte) wachat.db: wachat and the shell commands say
#    "empty" (6), the file is kept, no new link is made over it;
#  - a damaged header ("not a database"): said (6), the file kept byte
#    for byte; --fresh-db moves it (and its -wal) to
#    wachat.db.damaged-DATE, unchanged, says where, and starts anew;
#    --fresh-db on a sound database moves nothing;
#  - a damaged page no start-up read touches: wachat runs, and the
#    background quick_check says "damaged" on its output and in the log;
#  - a read-only file system, a full one: said as such (3), not "cannot
#    lock", and no empty wachat.db left behind;
#  - the lock: a second wachat, after the old lock file is deleted, is
#    still refused (7) and names the first's pid.
# TAP.  Every wait is bounded; every wachat is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
FLIP="python3 $s/tests/db-flip.py"
NOURL=ws://127.0.0.1:9/ws/chat
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
for t in python3 sqlite3 unshare cmp; do
	command -v "$t" >/dev/null 2>&1 || not_ok "the tool $t is installed"
done

# all EXPR: ok when the shell expression EXPR (expanded by the caller)
# is true, for checks of several conditions.
all() {
	eval "$1"
}

# run DIR OUT [OPTION]...: wachat on DIR in the foreground (a 30 s cap),
# all output in OUT; sets $status.
run() {
	d=$1 o=$2
	shift 2
	timeout 30 "$W" --url "$NOURL" --data-dir "$d" --log-file "$tmp/log" \
	    "$@" </dev/null >"$o" 2>&1
	status=$?
}

# start DIR OUT: wachat on DIR in the background; sets $wpid.
start() {
	"$W" --url "$NOURL" --data-dir "$1" --log-file "$1.log" </dev/null \
	    >"$2" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

# A real database: what wachat wrote on its first start (its keys).
start "$tmp/real" "$tmp/real.out"
wait_grep "$tmp/real.out" '^connecting' 600
wait_pid "$wpid" 1
wait_grep "$tmp/real.log" 'exit ' 600
check "a first start writes the device's keys" \
    [ "$(sqlite3 "$tmp/real/wachat.db" 'SELECT count(*) FROM device' 2>&1)" = 1 ]

# 1. empty
mkdir -m 700 "$tmp/e" && : >"$tmp/e/wachat.db" && chmod 600 "$tmp/e/wachat.db"
run "$tmp/e" "$tmp/e.out"
check "an empty database: wachat says so and stops with 6 (status $status)" \
    [ "$status" -eq 6 ]
check "... in words: empty (0 bytes), and how to start fresh" \
    grep -q "stopped: the database $tmp/e/wachat.db is empty (0 bytes).*wachat --fresh-db moves it aside" "$tmp/e.out" ||
    diag "$tmp/e.out"
check "... the file is kept, still empty, nothing new made over it" \
    all '[ -f "$tmp/e/wachat.db" ] && [ ! -s "$tmp/e/wachat.db" ] &&
    [ "$(ls "$tmp/e")" = wachat.db ]'
"$W" chats --data-dir "$tmp/e" >"$tmp/e.chats" 2>&1
check "wachat chats on it: empty, status 6 (status $?)" \
    grep -q 'is empty (0 bytes)' "$tmp/e.chats"

# 2. a damaged header
cp -a "$tmp/real" "$tmp/h"
$FLIP flip "$tmp/h/wachat.db" 0 16
cp "$tmp/h/wachat.db" "$tmp/h.orig"
run "$tmp/h" "$tmp/h.out"
check "a damaged header: wachat says damaged, not a database, and stops with 6 (status $status)" \
    all '[ "$status" -eq 6 ] && grep -q "stopped: the database $tmp/h/wachat.db is damaged (the database file is not a database).*--fresh-db" "$tmp/h.out"' ||
    diag "$tmp/h.out"
check "... the damaged file is kept byte for byte" cmp -s "$tmp/h/wachat.db" "$tmp/h.orig"
"$W" history --data-dir "$tmp/h" +15550000002 >"$tmp/h.hist" 2>&1
st=$?
check "wachat history on it: damaged, status 6 (status $st)" \
    all '[ "$st" -eq 6 ] && grep -q "is damaged (the database file is not a database)" "$tmp/h.hist"'
echo wal >"$tmp/h/wachat.db-wal" && chmod 600 "$tmp/h/wachat.db-wal"
"$W" --url "$NOURL" --data-dir "$tmp/h" --log-file "$tmp/log" --fresh-db \
    </dev/null >"$tmp/h2.out" 2>&1 &
rpid=$!
bg_pids="$bg_pids $rpid"
wait_grep "$tmp/h2.out" 'moved to .*linking anew' 600
aside=$(ls "$tmp/h" | grep '^wachat\.db\.damaged-[0-9]\{8\}-[0-9]\{6\}$')
check "--fresh-db moves it aside as wachat.db.damaged-DATE and says where" \
    grep -q "the damaged database was moved to $tmp/h/$aside; linking anew" "$tmp/h2.out" ||
    diag "$tmp/h2.out"
check "... unchanged, with its -wal" \
    all 'cmp -s "$tmp/h/$aside" "$tmp/h.orig" && [ "$(cat "$tmp/h/$aside-wal")" = wal ]'
check "... and starts anew on a new database" \
    wait_grep "$tmp/h2.out" '^connecting' 600
wait_pid "$rpid" 1
cp -a "$tmp/real" "$tmp/s"
run "$tmp/s" "$tmp/s.out" --fresh-db
check "--fresh-db on a sound database moves nothing and says so (status $status)" \
    all '[ "$status" -eq 1 ] && grep -q "is not damaged, so it was not moved" "$tmp/s.out" &&
    [ "$(ls "$tmp/s" | grep -c damaged)" -eq 0 ] && cmp -s "$tmp/s/wachat.db" "$tmp/real/wachat.db"'

# 3. a damaged page found by the check in the background
cp -a "$tmp/real" "$tmp/p"
root=$(sqlite3 "$tmp/p/wachat.db" "SELECT rootpage FROM sqlite_master WHERE name = 'reaction'")
psz=$(sqlite3 "$tmp/p/wachat.db" 'PRAGMA page_size')
$FLIP flip "$tmp/p/wachat.db" $(((root - 1) * psz)) 1
start "$tmp/p" "$tmp/p.out"
check "a damaged page: wachat runs, and the background check says damaged" \
    wait_grep "$tmp/p.out" "^error: the database is damaged \\(Page $root: .*\\): quit, keep a copy of $tmp/p, then start wachat --fresh-db" 600 ||
    diag "$tmp/p.out"
check "... and logs it" wait_grep "$tmp/p.log" 'integrity check: the database is malformed: Page' 600
check "... wachat runs on" kill -0 "$wpid"
wait_pid "$wpid" 1

# 4. a read-only file system, a full one (mount_sh: a mount namespace of
# our own where the kernel allows it)
mkdir "$tmp/mnt"
cp -a "$tmp/real" "$tmp/r"
mount_sh "mount -t tmpfs -o size=1m tmpfs '$tmp/mnt' && cp -a '$tmp/r' '$tmp/mnt/d' &&
    mkdir -m 700 '$tmp/mnt/new' && mount -o remount,ro '$tmp/mnt' &&
    timeout 30 '$W' --url $NOURL --data-dir '$tmp/mnt/d' --log-file '$tmp/ro.log' </dev/null >'$tmp/ro.out' 2>&1;
    echo \$? >'$tmp/ro.st';
    timeout 30 '$W' --url $NOURL --data-dir '$tmp/mnt/new' --log-file '$tmp/ro.log' </dev/null >'$tmp/ro2.out' 2>&1;
    echo \$? >'$tmp/ro2.st'" >"$tmp/ns.err" 2>&1
check "a read-only file system: said so, status 3 ($(cat "$tmp/ro.st" 2>/dev/null))" \
    all '[ "$(cat "$tmp/ro.st" 2>/dev/null)" = 3 ] &&
    grep -q "stopped: the data dir $tmp/mnt/d is on a read-only file system" "$tmp/ro.out"' ||
    { diag "$tmp/ro.out"; diag "$tmp/ns.err"; }
check "... also with no database yet, and never \"cannot lock\"" \
    all '[ "$(cat "$tmp/ro2.st" 2>/dev/null)" = 3 ] &&
    grep -q "read-only file system" "$tmp/ro2.out" && ! grep -q "cannot lock" "$tmp/ro.out" "$tmp/ro2.out"'
mount_sh "mount -t tmpfs -o size=64k tmpfs '$tmp/mnt' && mkdir -m 700 '$tmp/mnt/d' &&
    { head -c 1000000 /dev/zero >'$tmp/mnt/fill'; true; } 2>/dev/null &&
    timeout 30 '$W' --url $NOURL --data-dir '$tmp/mnt/d' --log-file '$tmp/full.log' </dev/null >'$tmp/full.out' 2>&1;
    echo \$? >'$tmp/full.st'; ls -A '$tmp/mnt/d' >'$tmp/full.ls'" >"$tmp/ns.err" 2>&1
check "a full disk: said so, status 3 ($(cat "$tmp/full.st" 2>/dev/null))" \
    all '[ "$(cat "$tmp/full.st" 2>/dev/null)" = 3 ] &&
    grep -q "stopped: the disk is full: the database in $tmp/mnt/d cannot be written" "$tmp/full.out"' ||
    { diag "$tmp/full.out"; diag "$tmp/ns.err"; }
check "... and no empty wachat.db is left for the next start to trip on" \
    all '[ -f "$tmp/full.ls" ] && [ ! -s "$tmp/full.ls" ]'

# 5. the lock cannot be deleted from under the holder
start "$tmp/l" "$tmp/l1.out"
first=$wpid
wait_grep "$tmp/l1.out" '^connecting' 600
rm -f "$tmp/l/lock"
run "$tmp/l" "$tmp/l2.out"
check "a second wachat, the lock file deleted, is refused with 7 (status $status)" \
    [ "$status" -eq 7 ]
check "... and names the first's pid ($first)" \
    grep -q "stopped: another wachat (pid $first) is running with the data dir $tmp/l\$" "$tmp/l2.out" ||
    diag "$tmp/l2.out"
check "... the first runs on" kill -0 "$first"
wait_pid "$first" 1
finish_tap
