#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What wachat and its shell commands say about the database, in words
# that say what happened once (issue 15 point 8, a tester's findings), no
# server needed (the URL refuses):
#  - --fresh-db's "the damaged database was moved to ..." is information,
#    not prefixed "error:";
#  - wachat backup DIR/ (or DIR) says that DIR is a directory and what to
#    give, not "Not a directory";
#  - a database truncated to 50 bytes: the shell says damaged (6), as
#    wachat does, not "an older schema";
#  - a shell command on a cleanly closed data dir leaves it as found (no
#    -shm, no -wal);
#  - on a read-only mount (mount_sh) the shell commands read a cleanly
#    closed database, and a WAL they cannot read there is said as such.
# TAP.  Every wait is bounded; every wachat is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
FLIP="python3 $s/tests/db-flip.py"
NOURL=ws://127.0.0.1:9/ws/chat
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
for t in python3 sqlite3 timeout unshare truncate; do
	command -v "$t" >/dev/null 2>&1 || not_ok "the tool $t is installed"
done

# A real database: what wachat wrote on its first start (its keys).
"$W" --url "$NOURL" --data-dir "$tmp/real" --log-file "$tmp/real.log" \
    </dev/null >"$tmp/real.out" 2>&1 &
wpid=$!
bg_pids="$bg_pids $wpid"
wait_grep "$tmp/real.out" '^connecting' 300
kill "$wpid" 2>/dev/null
wait_pid "$wpid" 300
wait_grep "$tmp/real.log" 'exit ' 300
check "a first start writes the device's keys" \
    [ "$(sqlite3 "$tmp/real/wachat.db" 'SELECT count(*) FROM device' 2>&1)" = 1 ]

# --fresh-db on a damaged header: information, not an error.
cp -a "$tmp/real" "$tmp/h"
$FLIP flip "$tmp/h/wachat.db" 0 16
"$W" --url "$NOURL" --data-dir "$tmp/h" --log-file "$tmp/h.log" --fresh-db \
    </dev/null >"$tmp/h.out" 2>&1 &
rpid=$!
bg_pids="$bg_pids $rpid"
wait_grep "$tmp/h.out" 'moved to .*linking anew' 300
check "--fresh-db says where it moved the damaged database" \
    grep -q "the damaged database was moved to $tmp/h/wachat\.db\.damaged-" \
    "$tmp/h.out"
check "... as information, not 'error:' (it is what was asked for)" \
    sh -c "! grep -q '^error:.*moved to' '$tmp/h.out'"
grep 'moved to' "$tmp/h.out" | sed 's/^/# /'
kill "$rpid" 2>/dev/null
wait_pid "$rpid" 300

# wachat backup DIR/ and DIR.
mkdir -m 700 "$tmp/bk"
for d in "$tmp/bk/" "$tmp/bk"; do
	"$W" backup --data-dir "$tmp/real" "$d" >"$tmp/b.out" 2>&1
	st=$?
	check "wachat backup $d: '$d is a directory' and what to give (status $st)" \
	    grep -q "wachat backup: $d is a directory; give the name of the file to write" \
	    "$tmp/b.out"
	grep . "$tmp/b.out" | sed 's/^/# /'
	check "... never 'Not a directory', exit 1" \
	    sh -c "[ $st -eq 1 ] && ! grep -q 'Not a directory' '$tmp/b.out'"
done
check "... nothing written in it" [ -z "$(ls -A "$tmp/bk")" ]

# Truncated to 50 bytes: damaged, for the shell as for wachat.
cp -a "$tmp/real" "$tmp/t"
truncate -s 50 "$tmp/t/wachat.db"
"$W" chats --data-dir "$tmp/t" >"$tmp/t.out" 2>&1
st=$?
check "wachat chats on a 50-byte database: damaged, status 6 (status $st)" \
    sh -c "[ $st -eq 6 ] && grep -q 'is damaged' '$tmp/t.out'"
grep . "$tmp/t.out" | sed 's/^/# /'

# A cleanly closed data dir stays as found.
# clean_copy DIR: a copy of the real data dir as a last writer that
# closed cleanly leaves it: sqlite3, the last to close it, folds the WAL
# in and removes -wal and -shm.
clean_copy() {
	rm -rf "$1"
	cp -a "$tmp/real" "$1"
	sqlite3 "$1/wachat.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
}
clean_copy "$tmp/c"
before=$(ls -A "$tmp/c" | tr '\n' ' ')
"$W" chats --data-dir "$tmp/c" >/dev/null 2>&1
"$W" backup --data-dir "$tmp/c" "$tmp/c.bak" >/dev/null 2>&1
after=$(ls -A "$tmp/c" | tr '\n' ' ')
check "wachat chats and backup leave a closed data dir as found ($before / $after)" \
    [ "$before" = "$after" ]

# A read-only mount of the data dir (a mount namespace of our own): the
# shell commands read a cleanly closed database; a WAL they cannot read
# there (no -shm, none can be made) is said as such, not "no database".
ro() {
	d=$1
	shift
	mount_sh 'mount --bind "$1" "$1" &&
	    mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$d" "$@"
}
clean_copy "$tmp/ro"
check "the copy has neither -wal nor -shm ($(ls -A "$tmp/ro" | tr '\n' ' '))" \
    sh -c "[ -f '$tmp/ro/wachat.db' ] && ! ls -A '$tmp/ro' | grep -q -e '-wal\$' -e '-shm\$'"
ro "$tmp/ro" "$W" chats --data-dir "$tmp/ro" >"$tmp/ro.out" 2>&1
st=$?
check "wachat chats on a read-only mount reads the database (status $st)" \
    [ "$st" -eq 0 ]
grep . "$tmp/ro.out" | sed 's/^/# /'
ro "$tmp/ro" "$W" backup --data-dir "$tmp/ro" "$tmp/ro.bak" >"$tmp/ro.out" 2>&1
st=$?
check "wachat backup on a read-only mount copies it (status $st)" \
    sh -c "[ $st -eq 0 ] && [ \"\$(sqlite3 '$tmp/ro.bak' 'SELECT count(*) FROM device')\" = 1 ]"
grep . "$tmp/ro.out" | sed 's/^/# /'
ro "$tmp/ro" sh -c 'echo x >"$1"' sh "$tmp/ro/x" 2>"$tmp/ro.touch"
check "... the mount really was read-only (the test's own check)" \
    grep -q 'Read-only file system' "$tmp/ro.touch"
clean_copy "$tmp/rw"
echo "some WAL" >"$tmp/rw/wachat.db-wal" && chmod 600 "$tmp/rw/wachat.db-wal"
ro "$tmp/rw" "$W" chats --data-dir "$tmp/rw" >"$tmp/rw.out" 2>&1
st=$?
check "a WAL without its -shm on a read-only mount: said as such (status $st)" \
    sh -c "[ $st -eq 3 ] && grep -q 'wachat.db-wal holds changes not yet in it' '$tmp/rw.out' && ! grep -q 'no database' '$tmp/rw.out'"
grep . "$tmp/rw.out" | sed 's/^/# /'

# A device row deleted, the chats left: no new link over another
# account's chats without an explicit --fresh-db; the shell still reads.
clean_copy "$tmp/k"
if ! "$b/tests/cli-db-fill" fill "$tmp/k" >"$tmp/fill.out" 2>&1; then
	not_ok "cli-db-fill fills a copy"
	diag "$tmp/fill.out"
fi
sqlite3 "$tmp/k/wachat.db" 'DELETE FROM device;'
timeout 60 "$W" --url "$NOURL" --data-dir "$tmp/k" --log-file "$tmp/k.log" \
    </dev/null >"$tmp/k.out" 2>&1
st=$?
check "no device row but chats: wachat refuses with 6 (status $st)" \
    [ "$st" -eq 6 ]
check "... saying the database holds chats but not their link's keys" \
    grep -q "holds chats but not the keys of the link they came by.*--fresh-db moves it aside" \
    "$tmp/k.out"
grep . "$tmp/k.out" | sed 's/^/# /'
check "... without making new keys or connecting" \
    sh -c "[ \"\$(sqlite3 '$tmp/k/wachat.db' 'SELECT count(*) FROM device')\" = 0 ] && ! grep -q '^connecting' '$tmp/k.out'"
"$W" chats --data-dir "$tmp/k" >"$tmp/k.chats" 2>&1
st=$?
check "... the shell commands still read it (status $st)" \
    sh -c "[ $st -eq 0 ] && grep -q 'Café Society' '$tmp/k.chats'"
"$W" --url "$NOURL" --data-dir "$tmp/k" --log-file "$tmp/k2.log" --fresh-db \
    </dev/null >"$tmp/k2.out" 2>&1 &
rpid=$!
bg_pids="$bg_pids $rpid"
check "--fresh-db moves it aside and links anew" \
    wait_grep "$tmp/k2.out" '^connecting' 300
check "... saying where it went" \
    grep -q "moved to $tmp/k/wachat\.db\.damaged-" "$tmp/k2.out"
kill "$rpid" 2>/dev/null
wait_pid "$rpid" 300
# A log-out (store_device_forget()'s mark, as the engine leaves it) is
# not that: the same account links again over its own chats.
clean_copy "$tmp/l"
"$b/tests/cli-db-fill" fill "$tmp/l" >/dev/null 2>&1
sqlite3 "$tmp/l/wachat.db" "DELETE FROM device; INSERT OR REPLACE INTO
    counter (name, value) VALUES ('logged_out', 1);"
"$W" --url "$NOURL" --data-dir "$tmp/l" --log-file "$tmp/l.log" \
    </dev/null >"$tmp/l.out" 2>&1 &
rpid=$!
bg_pids="$bg_pids $rpid"
check "after a log-out wachat links anew over the chats, as before" \
    wait_grep "$tmp/l.out" '^connecting' 300
kill "$rpid" 2>/dev/null
wait_pid "$rpid" 300

finish_tap
