#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The phash of wachat's group messages (issue 15, fixlock point 2;
# protocol.md 10.3): alice's wachat engine (tests/wa-eng-driver, real
# store) sends six messages to a PN group of alice and two simulated
# phones and six to a LID one; the sim compares each message's phash
# with the group's and logs "the client's phash X is not the group's Y"
# when they differ.  The phash was computed into a stack array of the
# function that built the stanza, which had returned when the stanza was
# encoded, so every group message carried whatever the stack then held.
# Every message reaches both phones, and the sim's log, which routed
# each, has no phash mismatch.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "phash pn" --pn $A sim:2 >"$tmp/g1" 2>&1
ctl group-create "phash lid" $A sim:2 >"$tmp/g2" 2>&1
G1=$(json_str id "$tmp/g1")@g.us
G2=$(json_str id "$tmp/g2")@g.us
check "a PN group and a LID group of alice and two phones" \
    sh -c "[ '$G1' != '@g.us' ] && [ '$G2' != '@g.us' ]" ||
    { diag "$tmp/g1"; diag "$tmp/g2"; }
check "alice's engine links and logs in" alice_start
ids=
for g in "$G1" "$G2"; do
	k=1
	while [ "$k" -le 6 ]; do
		id=$(alice_send "$g" "phash check $k")
		ids="$ids $id"
		check "group message $k to $g ($id) reaches both phones" \
		    wait_ctl '"decrypted":3' group-delivery "$g" "$id" ||
		    diag "$tmp/wc"
		k=$((k + 1))
	done
done
# The sim logs each message it routes: the log it would name a
# mismatch in is the one read here.
routed=0
for id in $ids; do
	grep -q "message $id " "$tmp/sim.log" && routed=$((routed + 1))
done
check "the sim's log has all 12 messages ($routed)" [ "$routed" -eq 12 ]
check "... and no phash mismatch for any of them" \
    sh -c "! grep -q \"phash .* is not the group's\" '$tmp/sim.log'" ||
    grep "is not the group's" "$tmp/sim.log" | sed 's/^/# /'
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
