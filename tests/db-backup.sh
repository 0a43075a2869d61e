#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat backup FILE while wachat runs (issue 15 point 10): a linked
# wachat takes five messages from bob's phone (wachat-sim); they are in
# the WAL, so a copy of wachat.db alone lacks them; `wachat backup F`
# (SQLite's online backup) writes F, 0600, in which sqlite3 -readonly
# and `wachat history` (F as the database of another data dir) find every
# one of them; wachat runs on.  Refuses to write over the database
# itself.  TAP.  Every wait is bounded; wachat and the sim are killed at
# the end.
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

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
D="$tmp/data"
"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$D" \
    --qr-file "$tmp/qr" --log-file "$tmp/log" </dev/null >"$tmp/w" 2>&1 &
wpid=$!
bg_pids="$bg_pids $wpid"
wait_grep "$tmp/qr" 'https://' 600
ctl scan-qr "$(cat "$tmp/qr")" >/dev/null 2>&1
check "wachat links and connects" wait_grep "$tmp/w" "^connected as \\+$A\$" 600 ||
    diag "$tmp/w"
# Bob's phone reaches wachat's device once its prekeys are on the server.
wait_grep "$tmp/log" 'prekeys: event 6, [0-9]+ keys' 600
i=1
while [ "$i" -le 5 ]; do
	ctl phone-send $B $AJ "backup check $i" >/dev/null 2>&1
	i=$((i + 1))
done
check "five messages from bob's phone arrive" \
    wait_grep "$tmp/w" 'from .*: backup check 5$' 600
for i in 1 2 3 4; do
	wait_grep "$tmp/w" "from .*: backup check $i\$" 600
done
check "... and are in the WAL: a copy of wachat.db alone lacks them" \
    sh -c "cp '$D/wachat.db' '$tmp/alone.db' && [ \"\$(sqlite3 '$tmp/alone.db' \"SELECT count(*) FROM message WHERE text LIKE 'backup check %'\" 2>/dev/null)\" != 5 ]"
"$W" backup --data-dir "$D" "$tmp/out/none.db" >"$tmp/b0" 2>&1
st=$?
check "backup into a missing directory: exit 5, said, nothing written (status $st)" \
    sh -c "[ $st -eq 5 ] && grep -q 'cannot write $tmp/out/none.db' '$tmp/b0' && [ ! -e '$tmp/out' ]"
"$W" backup --data-dir "$D" "$D/wachat.db" >"$tmp/b1" 2>&1
st=$?
check "backup over the database itself is refused (status $st)" \
    sh -c "[ $st -eq 1 ] && grep -q 'is the database itself' '$tmp/b1'"
"$W" backup --data-dir "$D" "$tmp/copy.db" >"$tmp/b2" 2>&1
st=$?
check "wachat backup F while wachat runs: exit 0 (status $st)" [ "$st" -eq 0 ] ||
    diag "$tmp/b2"
check "... F is 0600, and no temporary file is left" \
    sh -c "[ \"\$(stat -c %a '$tmp/copy.db')\" = 600 ] && [ -z \"\$(ls '$tmp' | grep 'copy.db.tmp')\" ]"
check "... sqlite3 -readonly finds all five messages in F" \
    [ "$(sqlite3 -readonly "$tmp/copy.db" "SELECT count(*) FROM message WHERE text LIKE 'backup check %'" 2>&1)" = 5 ]
check "... F is one self-contained file (journal_mode delete) that passes integrity_check" \
    [ "$(sqlite3 -readonly "$tmp/copy.db" 'PRAGMA journal_mode; PRAGMA integrity_check' 2>&1 | tr '\n' ' ')" = "delete ok " ]
mkdir -m 700 "$tmp/restored"
cp "$tmp/copy.db" "$tmp/restored/wachat.db"
"$W" history --data-dir "$tmp/restored" +$B --limit 0 >"$tmp/hist" 2>&1
check "... and wachat history, with F as a data dir's database, shows every one" \
    [ "$(grep -c 'backup check [1-5]$' "$tmp/hist")" -eq 5 ] || diag "$tmp/hist"
check "wachat runs on" kill -0 "$wpid"
wait_pid "$wpid" 1
sim_stop
finish_tap
