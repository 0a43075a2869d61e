#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every way the start and the shell commands can fail on the data dir,
# its files and the settings says what is wrong in words with the path,
# in one line, with the status of doc/wachat.1 EXIT STATUS (issue 15
# points 8 and 10), no server needed (the URL refuses):
#  - as an unprivileged user (nobody when run as root, via setpriv; else
#    the user itself; the checks fail if the privileges cannot be
#    dropped): another user's data dir, a wachat.db with no permission or
#    read-only, a data dir that cannot be written: "permission denied:
#    PATH" (3), not "read-only file system"; a settings file that cannot
#    be read (1); a log file that cannot be written (1); backup into a
#    directory of another user (5, one line);
#  - a data dir that is a file (every subcommand too), missing, open to
#    other users, a wachat.db that is a directory or whose schema version
#    is damaged, a settings file or log file that is a directory, backup
#    into a missing directory, output to a full disk: the shell commands
#    say it in one line (the store's warnings stay off stderr).
# TAP.  Every wait is bounded; every wachat is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
NOURL=ws://127.0.0.1:9/ws/chat
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
for t in sqlite3 timeout; do
	command -v "$t" >/dev/null 2>&1 || not_ok "the tool $t is installed"
done

# all EXPR: ok when the shell expression EXPR is true.
all() {
	eval "$1"
}

# run OUT CMD...: CMD (a 30 s cap), stdout and stderr in OUT; sets $st.
run() {
	o=$1
	shift
	timeout 30 "$@" </dev/null >"$o" 2>&1
	st=$?
}

# said OUT STATUS REGEX: the status is STATUS and OUT is one line that
# matches REGEX (grep -E).
said() {
	[ "$st" -eq "$2" ] && [ "$(wc -l <"$1")" -eq 1 ] && grep -Eq -- "$3" "$1"
}

# A real database: what wachat wrote on its first start (its keys), and
# a chat in it.
"$W" --url "$NOURL" --data-dir "$tmp/real" --log-file "$tmp/real.log" \
    </dev/null >"$tmp/real.out" 2>&1 &
wpid=$!
bg_pids="$bg_pids $wpid"
wait_grep "$tmp/real.out" '^connecting' 600
wait_pid "$wpid" 1
sqlite3 "$tmp/real/wachat.db" "INSERT INTO chat (jid, name, last_ms) VALUES ('15550000002@s.whatsapp.net', 'bob', 1000)"
check "a first start writes the device's keys" \
    [ "$(sqlite3 "$tmp/real/wachat.db" 'SELECT count(*) FROM device' 2>&1)" = 1 ]

# --- as an unprivileged user
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 ||
	    not_ok "setpriv is installed (to run the checks as nobody)"
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$tmp"	# nobody reaches its own dirs in it
else
	AS=
fi
# mine DIR: a directory of the unprivileged user, mode 0700.
mine() {
	mkdir -p -m 700 "$1"
	[ -z "$AS" ] || chown -R 65534:65534 "$1"
}
# urun OUT CMD...: run OUT CMD... as the unprivileged user, with a HOME
# of its own.
urun() {
	o=$1
	shift
	# shellcheck disable=SC2086
	run "$o" $AS env HOME="$tmp/uhome" "$@"
}
mine "$tmp/uhome"
uid=$($AS id -u 2>&1)
check "the checks below run as an unprivileged user (uid $uid)" \
    sh -c "[ -n '$uid' ] && [ '$uid' != 0 ] && [ '$uid' -eq '$uid' ]" 2>/dev/null

# another user's data dir (as root: root's; else one with no permission)
cp -a "$tmp/real" "$tmp/other"
[ -n "$AS" ] || chmod 000 "$tmp/other"
O="$tmp/other"
urun "$tmp/p1.out" "$W" --url "$NOURL" --data-dir "$O" \
    --log-file "$tmp/uhome/log"
check "another user's data dir: wachat says permission denied with the path, status 3 ($st)" \
    said "$tmp/p1.out" 3 "^stopped: permission denied: $O \\(" || diag "$tmp/p1.out"
urun "$tmp/p1c.out" "$W" chats --data-dir "$O"
check "... wachat chats too, status 3 ($st)" \
    said "$tmp/p1c.out" 3 "^wachat: permission denied: $O \\(" || diag "$tmp/p1c.out"

# no permission on wachat.db
cp -a "$tmp/real" "$tmp/u2"
mine "$tmp/u2"
chmod 000 "$tmp/u2/wachat.db"
urun "$tmp/p2.out" "$W" --url "$NOURL" --data-dir "$tmp/u2" \
    --log-file "$tmp/uhome/log"
check "a wachat.db with no permission: permission denied with its path, status 3 ($st)" \
    said "$tmp/p2.out" 3 "^stopped: permission denied: $tmp/u2/wachat.db \\(" ||
    diag "$tmp/p2.out"
urun "$tmp/p2c.out" "$W" history --data-dir "$tmp/u2" bob
check "... wachat history too, status 3 ($st)" \
    said "$tmp/p2c.out" 3 "^wachat: permission denied: $tmp/u2/wachat.db \\(" ||
    diag "$tmp/p2c.out"

# a read-only wachat.db: wachat must write it; the shell commands read it
cp -a "$tmp/real" "$tmp/u3"
mine "$tmp/u3"
chmod 400 "$tmp/u3/wachat.db"
urun "$tmp/p3.out" "$W" --url "$NOURL" --data-dir "$tmp/u3" \
    --log-file "$tmp/uhome/log"
check "a read-only wachat.db: permission denied with its path, status 3 ($st)" \
    said "$tmp/p3.out" 3 "^stopped: permission denied: $tmp/u3/wachat.db \\(" ||
    diag "$tmp/p3.out"
urun "$tmp/p3c.out" "$W" chats --data-dir "$tmp/u3"
check "... wachat chats reads it (status $st)" \
    all '[ "$st" -eq 0 ] && grep -q bob "$tmp/p3c.out"' || diag "$tmp/p3c.out"

# a data dir that cannot be written (SQLite makes -wal and -shm there)
cp -a "$tmp/real" "$tmp/u4"
mine "$tmp/u4"
chmod 500 "$tmp/u4"
urun "$tmp/p4.out" "$W" --url "$NOURL" --data-dir "$tmp/u4" \
    --log-file "$tmp/uhome/log"
check "a data dir that cannot be written: permission denied on it, not \"read-only file system\", status 3 ($st)" \
    said "$tmp/p4.out" 3 "^stopped: permission denied: $tmp/u4 \\(" ||
    diag "$tmp/p4.out"
urun "$tmp/p4c.out" "$W" chats --data-dir "$tmp/u4"
check "... wachat chats reads it: closed cleanly, it needs no -wal or -shm (status $st)" \
    all '[ "$st" -eq 0 ] && grep -q bob "$tmp/p4c.out"' || diag "$tmp/p4c.out"

# backup into another user's directory
cp -a "$tmp/real" "$tmp/u5"
mine "$tmp/u5"
urun "$tmp/p5.out" "$W" backup --data-dir "$tmp/u5" "$O/copy.db"
check "backup into another user's directory: one line, permission denied, status 5 ($st)" \
    said "$tmp/p5.out" 5 "^wachat backup: cannot write $O/copy.db: Permission denied \\(nothing was written\\)$" ||
    diag "$tmp/p5.out"

# a settings file that cannot be read
printf 'log-level = info\n' >"$tmp/conf"
chmod 600 "$tmp/conf"
[ -n "$AS" ] || chmod 000 "$tmp/conf"
urun "$tmp/p6.out" "$W" --url "$NOURL" --config "$tmp/conf" \
    --data-dir "$tmp/u5" --log-file "$tmp/uhome/log"
check "a settings file that cannot be read: permission denied with its path, status 1 ($st)" \
    said "$tmp/p6.out" 1 "^wachat: $tmp/conf: permission denied$" || diag "$tmp/p6.out"
urun "$tmp/p6c.out" "$W" chats --config "$tmp/conf" --data-dir "$tmp/u5"
check "... wachat chats too, status 1 ($st)" \
    said "$tmp/p6c.out" 1 "^wachat: $tmp/conf: permission denied$" || diag "$tmp/p6c.out"

# a log file that cannot be written
urun "$tmp/p7.out" "$W" --url "$NOURL" --data-dir "$tmp/u5" \
    --log-file "$O/wachat.log"
check "a log file that cannot be written: said with its path, status 1 ($st)" \
    said "$tmp/p7.out" 1 "^wachat: cannot open the log file $O/wachat.log: Permission denied$" ||
    diag "$tmp/p7.out"
[ -n "$AS" ] || chmod 700 "$O"

# --- the paths themselves
: >"$tmp/file"
run "$tmp/e1.out" "$W" --url "$NOURL" --data-dir "$tmp/file" --log-file "$tmp/log"
check "a data dir that is a file: said so, status 3 ($st)" \
    said "$tmp/e1.out" 3 "^stopped: the data dir $tmp/file is not a directory$" ||
    diag "$tmp/e1.out"
for c in chats "history bob" "search hello" "export bob --format txt" \
    "backup $tmp/copy.db"; do
	# shellcheck disable=SC2086
	run "$tmp/e1c.out" "$W" $c --data-dir "$tmp/file"
	check "... wachat ${c%% *} too, status 3 ($st)" \
	    said "$tmp/e1c.out" 3 "^wachat: the data dir $tmp/file is not a directory$" ||
	    diag "$tmp/e1c.out"
done
run "$tmp/e2.out" "$W" chats --data-dir "$tmp/missing"
check "a missing data dir: wachat chats says there is no database, status 3 ($st)" \
    said "$tmp/e2.out" 3 "^wachat: no database in $tmp/missing " || diag "$tmp/e2.out"
"$W" --url "$NOURL" --data-dir "$tmp/missing/d" --log-file "$tmp/log" \
    </dev/null >"$tmp/e2w.out" 2>&1 &
wpid=$!
bg_pids="$bg_pids $wpid"
check "... wachat makes it (mode 0700) and starts" \
    all 'wait_grep "$tmp/e2w.out" "^connecting" 600 &&
    [ "$(stat -c %a "$tmp/missing/d")" = 700 ]' || diag "$tmp/e2w.out"
wait_pid "$wpid" 1
mkdir -m 700 "$tmp/e3" "$tmp/e3/wachat.db"
run "$tmp/e3.out" "$W" --url "$NOURL" --data-dir "$tmp/e3" --log-file "$tmp/log"
check "a wachat.db that is a directory: said so, status 3 ($st)" \
    said "$tmp/e3.out" 3 "^stopped: $tmp/e3/wachat.db is a directory, not a database file$" ||
    diag "$tmp/e3.out"
cp -a "$tmp/real" "$tmp/e8"
printf '\000\000\000\003' | dd of="$tmp/e8/wachat.db" bs=1 seek=60 conv=notrunc 2>/dev/null
run "$tmp/e8.out" "$W" chats --data-dir "$tmp/e8"
check "a damaged schema version: wachat chats says damaged in one line, status 6 ($st)" \
    said "$tmp/e8.out" 6 "^wachat: the database $tmp/e8/wachat.db is damaged " ||
    diag "$tmp/e8.out"
mkdir -m 750 "$tmp/e9"
cp "$tmp/real/wachat.db" "$tmp/e9/"
run "$tmp/e9.out" "$W" search hello --data-dir "$tmp/e9"
check "a data dir open to other users: wachat search says so and what to do in one line, status 3 ($st)" \
    said "$tmp/e9.out" 3 "^wachat: the data dir $tmp/e9 \\(or its database\\) is open to other users: chmod 700" ||
    diag "$tmp/e9.out"
run "$tmp/e4.out" "$W" --url "$NOURL" --config "$tmp" --data-dir "$tmp/real" \
    --log-file "$tmp/log"
check "a settings file that is a directory: said so, status 1 ($st)" \
    said "$tmp/e4.out" 1 "^wachat: $tmp: a directory, not a file$" || diag "$tmp/e4.out"
run "$tmp/e5.out" "$W" --url "$NOURL" --data-dir "$tmp/real" --log-file "$tmp"
check "a log file that is a directory: said so, status 1 ($st)" \
    said "$tmp/e5.out" 1 "^wachat: cannot open the log file $tmp: Is a directory$" ||
    diag "$tmp/e5.out"
run "$tmp/e6.out" "$W" backup --data-dir "$tmp/real" "$tmp/nodir/copy.db"
check "backup into a missing directory: one line with the path and why, status 5 ($st)" \
    said "$tmp/e6.out" 5 "^wachat backup: cannot write $tmp/nodir/copy.db: No such file or directory \\(nothing was written\\)$" ||
    diag "$tmp/e6.out"
"$W" chats --data-dir "$tmp/real" >/dev/full 2>"$tmp/e7.out"
st=$?
check "wachat chats to a full disk: one line, why, status 5 ($st)" \
    said "$tmp/e7.out" 5 "^wachat: cannot write the output: No space left on device$" ||
    diag "$tmp/e7.out"
check "no message is a bare error number" \
    sh -c "! grep -E -i 'unknown error|error -?[0-9]+$|errno' '$tmp'/*.out"
finish_tap
