#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A session or identity row that was read fine but holds a damaged record
# is rebuilt, not a read error that stops the send (issue 15, point 1;
# reliability.md 9).  alice's wachat engine (tests/wa-eng-driver, real
# store) and a PN group of alice and two simulated phones; rows damaged
# with sqlite3 while the engine is stopped: sim 1's session emptied
# (0 bytes), then made larger than the store's limit: each time a new
# group's first message (its SKDM pairwise to sim 1) reaches both phones.
# Then sim 1's identity key damaged (2 bytes, written past the schema's
# CHECK) and its session emptied, so that a bundle is taken: a 1:1
# message is delivered and the user is told the security code changed.
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
M1=15559000001
M2=15559000002
M1J=$M1@s.whatsapp.net
DB="$tmp/alice.d/wachat.db"

command -v sqlite3 >/dev/null 2>&1 || { echo "Bail out! sqlite3 is needed"; exit 1; }
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "records" --pn $A sim:2 >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
check "a PN group of alice and two phones" test "$G" != "@g.us" || diag "$tmp/g"
check "alice's engine links and logs in" alice_start
id=$(alice_send "$M1J" "hello one")
check "a 1:1 message to sim 1 is delivered (a session with its phone)" \
    wait_grep "$tmp/alice.out" "^dm-state $M1J $id delivered\$" 300
alice_stop

# damage SQL: set sim 1's session record, print how many rows changed
damage() {
	sqlite3 "$DB" "UPDATE session SET record = $1 WHERE name = '$M1';
	    SELECT changes();"
}
nq=0
# group_case WHAT RECORD-SQL: a new group of alice and both phones, so
# that its first message carries the SKDM pairwise to sim 1 (its session)
group_case() {
	nq=$((nq + 1))
	ctl group-create "case $nq" --pn $A $M1 $M2 >"$tmp/g$nq" 2>&1
	GC=$(json_str id "$tmp/g$nq")@g.us
	check "sim 1's session is made $1" test "$(damage "$2")" = 1
	check "alice's engine logs in ($1 session)" alice_start
	gid=$(alice_send "$GC" "group $nq")
	check "the group message reaches both phones ($1 session)" \
	    wait_ctl '"decrypted":3' group-delivery "$GC" "$gid" ||
	    { diag "$tmp/wc"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
	check "... both read exactly its text" \
	    grep -q "\"texts\":{\"group $nq\":3}" "$tmp/wc"
	check "... and wachat reports no failure" \
	    sh -c "! grep -q '^dm-send-failed' '$tmp/alice.out'"
	alice_stop
}
group_case empty "X''"
check "... the empty record logged as damaged and quarantined" \
    grep -q 'the stored record is damaged (0 bytes)' "$tmp/alice.err"
group_case "too big" "zeroblob(1048577)"
check "... the oversized record logged as damaged" \
    grep -q 'the stored record is damaged (1048577 bytes)' "$tmp/alice.err"
check "both quarantined, rebuilt from a bundle" \
    test "$(grep -c 'does not deserialize: quarantined' "$tmp/alice.err")" -ge 2

check "sim 1's identity key is damaged (2 bytes)" \
    test "$(sqlite3 "$DB" "PRAGMA ignore_check_constraints = ON;
	UPDATE identity SET key = X'0102' WHERE name = '$M1';
	SELECT changes();")" = 1
check "... and its session emptied" test "$(damage "X''")" = 1
check "alice's engine logs in (damaged identity)" alice_start
id=$(alice_send "$M1J" "after the identity")
check "a 1:1 message to sim 1 is delivered" \
    wait_grep "$tmp/alice.out" "^dm-state $M1J $id delivered\$" 300 ||
    { diag "$tmp/alice.out"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
ctl phone-inbox $M1 >"$tmp/in1"
check "... sim 1's phone read it" \
    grep -q "\"id\":\"$id\",[^}]*\"text\":\"after the identity\"" "$tmp/in1"
check "the user is told that sim 1's security code changed" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J .*notice=1 .*: security code changed\$" 300 ||
    diag "$tmp/alice.out"
check "the damaged identity is logged as quarantined" \
    grep -q 'damaged identity of device 0 is quarantined' "$tmp/alice.err"
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
