#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A damaged sender-key record must not block a group (issue 15, point 1;
# reliability.md 9).  alice's wachat engine (tests/wa-eng-driver, real
# store) and a PN group of alice and two simulated phones; records are
# damaged with sqlite3 while the engine is stopped.  Our own sender key
# overwritten with random bytes: the next group message must reach both
# phones (a new key, its SKDM to every member device again), and so must
# the one after a restart.  A member's sender key damaged: that member's
# next skmsg is read after one retry receipt (the SKDM sent again), and
# the one after it at the first try.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AD="$A:1@s.whatsapp.net|100000000000001:1@lid"	# alice's companion
DB="$tmp/alice.d/wachat.db"

command -v sqlite3 >/dev/null 2>&1 || { echo "Bail out! sqlite3 is needed"; exit 1; }
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "records" --pn $A sim:2 >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
S=$(sed -n 's/.*"created_contacts":\["\([0-9]*\)".*/\1/p' "$tmp/g")
check "a PN group of alice and two phones" test "$G" != "@g.us" -a -n "$S" ||
    diag "$tmp/g"
check "alice's engine links and logs in" alice_start
id=$(alice_send "$G" "first")
check "the first group message reaches both phones (and alice's own)" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id" || diag "$tmp/wc"
alice_stop

# our own sender key for the group: the only sender_key row of the group
check "our own sender key is overwritten with random bytes" \
    test "$(sqlite3 "$DB" "UPDATE sender_key SET record = randomblob(117)
	WHERE group_id = '$G'; SELECT changes();")" = 1
check "alice's engine logs in again" alice_start
id=$(alice_send "$G" "after the damage")
check "the next group message reaches both phones" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id" ||
    { diag "$tmp/wc"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
check "... both read exactly its text" \
    grep -q '"texts":{"after the damage":3}' "$tmp/wc"
check "... and wachat reports no failure" \
    sh -c "! grep -q '^dm-send-failed' '$tmp/alice.out'"
check "the damaged key is logged as quarantined, a new one made" \
    wait_grep "$tmp/alice.err" 'sender key for a group was damaged: a new one'
alice_stop
check "alice's engine logs in once more" alice_start
id=$(alice_send "$G" "after a restart")
check "the group message after a restart reaches both phones" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id" || diag "$tmp/wc"

# a member's sender key: sim S sends (with its SKDM), then it is damaged
ctl phone-group-send "$S" "$G" "from S one" >"$tmp/s1" 2>&1
id1=$(json_str id "$tmp/s1")
check "sim S's first group message is read" \
    wait_grep "$tmp/alice.out" "^dm-message $G $id1 from_me=0 .*: from S one\$" 300 ||
    diag "$tmp/s1"
alice_stop
check "sim S's sender key is overwritten with random bytes" \
    test "$(sqlite3 "$DB" "UPDATE sender_key SET record = randomblob(117)
	WHERE group_id = '$G' AND name = '$S'; SELECT changes();")" = 1
check "alice's engine logs in after the second damage" alice_start
ctl phone-group-send "$S" "$G" "from S two" >"$tmp/s2" 2>&1
id2=$(json_str id "$tmp/s2")
check "sim S's next message (skmsg only) is read" \
    wait_grep "$tmp/alice.out" "^dm-message $G $id2 from_me=0 .*: from S two\$" 300 ||
    { diag "$tmp/s2"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
check "... after a retry receipt from wachat (the SKDM again)" \
    test "$(retries "$id2" "$AD")" -ge 1
check "... the damaged record logged as quarantined" \
    grep -q 'damaged sender-key record is quarantined' "$tmp/alice.err"
ctl phone-group-send "$S" "$G" "from S three" >"$tmp/s3" 2>&1
id3=$(json_str id "$tmp/s3")
check "sim S's third message is read" \
    wait_grep "$tmp/alice.out" "^dm-message $G $id3 from_me=0 .*: from S three\$" 300
check "... at the first try (the new key was stored)" \
    test "$(retries "$id3" "$AD")" -eq 0
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
