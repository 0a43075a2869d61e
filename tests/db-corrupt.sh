#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# 20 seeded corruptions of a linked wachat's database (reliability.md,
# the "Corrupt DB" figure; issue 15 point 8).  wachat links to wachat-sim,
# takes a message from bob's phone and stops; its database is copied, and
# each copy gets 4 bytes flipped at one offset (the header, the schema
# page, the device row's keys and JID, each table's root page, then
# seeded random ones: tests/db-flip.py).  On each, wachat is started
# against the sim, and either
#  - works with the keys intact: logs in as the same device ("connected
#    as", no QR), and the device row still holds the same keys; or
#  - says "damaged" (or "empty") and stops with 6, the file kept byte for
#    byte;
# and never crashes (no signal, no sanitizer report) and never makes a
# new link (no QR).  A run that logs in and whose background check then
# finds the damage counts as detected.  Then the schema version in the
# header set to numbers a wachat never wrote with these tables: said
# damaged (6), the file kept; and a newer wachat's: said so (3).  TAP: one
# line per case.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
FLIP="python3 $s/tests/db-flip.py"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
SEED=${DB_CORRUPT_SEED:-15}
CASES=${DB_CORRUPT_CASES:-20}
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
for t in python3 sqlite3 cmp; do
	command -v "$t" >/dev/null 2>&1 || not_ok "the tool $t is installed"
done

# wachat_bg DIR OUT: wachat on DIR against the sim; sets $wpid.
wachat_bg() {
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$1" \
	    --qr-file "$1.qr" --log-file "$1.log" </dev/null >"$2" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

# term PID: SIGTERM, up to 60 s, then KILL; sets $status.
term() {
	kill -TERM "$1" 2>/dev/null
	wait_pid "$1" 600
}

# keys DIR: the device's public keys and JID, as hex.
keys() {
	sqlite3 -readonly "$1/wachat.db" "SELECT hex(noise_pub) || hex(identity_pub) || hex(spk_pub) || jid FROM device" 2>/dev/null
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
wachat_bg "$tmp/real" "$tmp/real.out"
wait_grep "$tmp/real.qr" 'https://' 600
ctl scan-qr "$(cat "$tmp/real.qr")" >/dev/null 2>&1
check "wachat links and connects" \
    wait_grep "$tmp/real.out" "^connected as \\+$A\$" 600 || diag "$tmp/real.out"
wait_grep "$tmp/real.log" 'prekeys: event 6, [0-9]+ keys' 600
ctl phone-send $B $AJ "before the damage" >/dev/null 2>&1
wait_grep "$tmp/real.out" 'from .*: before the damage$' 600
term "$wpid"
check "... takes bob's message and stops cleanly (status $status)" [ "$status" -eq 0 ]
good=$(keys "$tmp/real")
check "its database holds the device's keys" [ -n "$good" ]
ID=$(sqlite3 -readonly "$tmp/real/wachat.db" "SELECT hex(identity_pub) FROM device")
NOISE=$(sqlite3 -readonly "$tmp/real/wachat.db" "SELECT hex(noise_pub) FROM device")
JIDHEX=$(printf '%s' "$A" | od -An -tx1 | tr -d ' \n')

worked=0 detected=0
k=0
for off in $($FLIP offsets "$tmp/real/wachat.db" "$SEED" "$CASES" "$ID" "$NOISE" "$JIDHEX"); do
	k=$((k + 1))
	d="$tmp/c$k"
	cp -a "$tmp/real" "$d"
	rm -f "$d.qr"
	$FLIP flip "$d/wachat.db" "$off" 4
	cp "$d/wachat.db" "$d.orig"
	wachat_bg "$d" "$d.out"
	# logged in, stopped, or a QR (a new link: the failure to catch)
	i=0
	while [ "$i" -lt 600 ] && kill -0 "$wpid" 2>/dev/null &&
	    ! grep -q -E '^connected as|^scan this QR|^enter this code' "$d.out" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if grep -q '^connected as' "$d.out"; then
		# give the background check its time: it is said or logged
		wait_grep "$d.log" 'integrity check: ' 600
	fi
	term "$wpid"
	why=
	if grep -q -E 'Sanitizer|runtime error:' "$d.out"; then
		why="a sanitizer report"
	elif [ "$status" -ge 128 ] && [ "$status" -ne 143 ]; then
		why="a crash (status $status)"
	elif grep -q -E '^scan this QR|^enter this code' "$d.out"; then
		why="a new link made over it"
	elif grep -q -E "^connected as \\+$A\$" "$d.out"; then
		if [ "$(keys "$d")" = "$good" ]; then
			if grep -q 'integrity check: ok' "$d.log"; then
				why=ok-worked
			elif grep -q '^error: the database is damaged' "$d.out"; then
				why=ok-detected
			else
				why="the background check said nothing"
			fi
		elif grep -q '^error: the database is damaged' "$d.out"; then
			why=ok-detected
		else
			why="logged in, but the keys changed"
		fi
	elif [ "$status" -eq 6 ] &&
	    grep -q -E "^stopped: the database .* is (damaged|empty)" "$d.out"; then
		if cmp -s "$d/wachat.db" "$d.orig"; then
			why=ok-detected
		else
			why="said damaged, but the file was changed"
		fi
	else
		why="neither logged in nor said damaged (status $status)"
	fi
	case $why in
	ok-worked)
		worked=$((worked + 1))
		ok "offset $off: works, the same keys, check ok";;
	ok-detected)
		detected=$((detected + 1))
		ok "offset $off: said damaged$(grep -q '^stopped' "$d.out" && echo ', stopped with 6, the file kept')";;
	*)
		not_ok "offset $off: $why"
		diag "$d.out";;
	esac
done
check "$CASES cases: $worked worked with their keys, $detected were said damaged" \
    [ $((worked + detected)) -eq "$CASES" ]

# The schema version in the header (user_version, bytes 60-63) damaged to
# a number a wachat never wrote with these tables (0 and older ones: the
# tables are newer; newer ones: no copy of it in the counter table, which
# a newer wachat writes with it): said damaged, not "cannot open" nor
# "newer", the file kept byte for byte; the shell commands say so too.
# (vd, not d: check() of tests/sim-lib.sh sets d.)
cur=$(sqlite3 "$tmp/real/wachat.db" 'PRAGMA user_version')
for uv in 0 1 3 $((cur - 1)) $((cur + 1)) 1000 2147483647; do
	vd="$tmp/v$uv"
	cp -a "$tmp/real" "$vd"
	$FLIP put "$vd/wachat.db" 60 "$(printf '%08x' "$uv")"
	cp "$vd/wachat.db" "$vd.orig"
	timeout 60 "$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$vd" \
	    --qr-file "$vd.qr" --log-file "$vd.log" </dev/null >"$vd.out" 2>&1
	st=$?
	check "user_version $uv: said damaged, stopped with 6 (status $st)" \
	    sh -c "[ $st -eq 6 ] && grep -q '^stopped: the database $vd/wachat.db is damaged' '$vd.out'" ||
	    diag "$vd.out"
	check "... the file kept byte for byte, no new link" \
	    sh -c "cmp -s '$vd/wachat.db' '$vd.orig' && [ ! -s '$vd.qr' ]"
	"$W" chats --data-dir "$vd" >"$vd.chats" 2>&1
	st=$?
	check "... wachat chats says damaged too (status $st)" \
	    sh -c "[ $st -eq 6 ] && grep -q 'wachat.db is damaged' '$vd.chats'" ||
	    diag "$vd.chats"
done
# A newer wachat's database (the version and its copy both one above
# this wachat's): "newer".
vd="$tmp/newer"
cp -a "$tmp/real" "$vd"
sqlite3 "$vd/wachat.db" "UPDATE counter SET value = $((cur + 1)) WHERE name = 'schema_version'; PRAGMA user_version = $((cur + 1))"
timeout 60 "$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$vd" \
    --qr-file "$vd.qr" --log-file "$vd.log" </dev/null >"$vd.out" 2>&1
st=$?
check "a newer wachat's database: said so, status 3 ($st)" \
    sh -c "[ $st -eq 3 ] && grep -q 'written by a newer wachat' '$vd.out'" ||
    diag "$vd.out"
"$W" chats --data-dir "$vd" >"$vd.chats" 2>&1
st=$?
check "... wachat chats says so too (status $st)" \
    sh -c "[ $st -eq 3 ] && grep -q 'written by a newer wachat (schema $((cur + 1)); this one reads $cur)' '$vd.chats'" ||
    diag "$vd.chats"
sim_stop
finish_tap
