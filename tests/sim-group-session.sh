#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One member's broken Signal session must not block a group (issue 15,
# point 1; reliability.md 9).  alice's wachat engine (tests/wa-eng-driver,
# real store) and a PN group of alice and two simulated phones: the
# stored session with sim 1's phone is overwritten with bytes that do not
# deserialize (sqlite3, wachat stopped).  The next group message must
# reach both phones (the corrupt record rebuilt from a fresh bundle), and
# so must a 1:1 message to sim 1 after the same damage, and the group's
# next message.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
M1=15559000001
M2=15559000002
M1J=$M1@s.whatsapp.net

command -v sqlite3 >/dev/null 2>&1 || { echo "Bail out! sqlite3 is needed"; exit 1; }
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "sessions" --pn $A sim:2 >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
check "a PN group of alice and two phones" test "$G" != "@g.us" || diag "$tmp/g"
check "alice's engine links and logs in" alice_start
id=$(alice_send "$M1J" "hello one")
check "a 1:1 message to sim 1 is delivered (a session with its phone)" \
    wait_grep "$tmp/alice.out" "^dm-state $M1J $id delivered\$" 600
alice_stop

# the damage: sim 1's session record, bytes that are no record
corrupt() {
	sqlite3 "$tmp/alice.d/wachat.db" \
	    "UPDATE session SET record = X'0A0BDEADBEEF00FF' || randomblob(40) WHERE name = '$M1';
	     SELECT changes();"
}
check "sim 1's stored session is overwritten with garbage" \
    test "$(corrupt)" = 1
check "alice's engine logs in again" alice_start
gid=$(alice_send "$G" "to the whole group")
check "the group message reaches both phones (and alice's own)" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$gid" ||
    { diag "$tmp/wc"; diag "$tmp/alice.out"; }
check "... both read exactly its text" \
    grep -q '"texts":{"to the whole group":3}' "$tmp/wc"
check "... and wachat reports no failure" \
    sh -c "! grep -q '^dm-send-failed' '$tmp/alice.out'"
check "the corrupt record is logged as quarantined, not as a missing session" \
    grep -q 'does not deserialize: quarantined' "$tmp/alice.err"
alice_stop

check "sim 1's session is damaged again" test "$(corrupt)" = 1
check "alice's engine logs in once more" alice_start
id2=$(alice_send "$M1J" "one to one again")
check "a 1:1 message to sim 1 is delivered after the damage" \
    wait_grep "$tmp/alice.out" "^dm-state $M1J $id2 delivered\$" 600 ||
    diag "$tmp/alice.out"
ctl phone-inbox $M1 >"$tmp/in1"
check "... sim 1's phone read it" \
    grep -q "\"id\":\"$id2\",[^}]*\"text\":\"one to one again\"" "$tmp/in1"
id3=$(alice_send "$G" "and the group again")
check "the next group message reaches both phones too" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id3" || diag "$tmp/wc"
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
