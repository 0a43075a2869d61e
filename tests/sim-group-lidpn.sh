#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A member's sender key and its skmsg under different addressing (issue
# 15, point 3; protocol.md 5.3, 10.3).  alice's wachat engine
# (tests/wa-eng-driver, real store) in a LID group and in a PN group with
# simulated phones.  The sim's group_flip knob names the sender of the
# next group message in the group's other namespace, as the server does
# while a group moves between PN and LID: sim 1's first message (with its
# SKDM) comes from its PN device in the LID group, its second (skmsg
# only) from its LID device; in the PN group the reverse.  Each second
# message must decrypt at the first try: shown, and no retry receipt
# from wachat.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AD="$A:1@s.whatsapp.net|100000000000001:1@lid"	# alice's companion

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
check "alice's engine links and logs in" alice_start

# mode WORD [--pn]: a group of alice and 2 new phones; the first phone
# sends twice, the first time under the other namespace.
flip_case() {
	ctl group-create "$1" $2 $A sim:2 >"$tmp/g.$1" 2>&1
	G=$(json_str id "$tmp/g.$1")@g.us
	S=$(sed -n 's/.*"created_contacts":\["\([0-9]*\)".*/\1/p' "$tmp/g.$1")
	ctl knobs group_flip=1 >/dev/null
	ctl phone-group-send "$S" "$G" "$1 one" >"$tmp/s1.$1" 2>&1
	id1=$(json_str id "$tmp/s1.$1")
	check "$1 group: sim's first message (SKDM, sender in the other namespace) is read" \
	    wait_grep "$tmp/alice.out" "^dm-message $G $id1 from_me=0 .*: $1 one\$" 600 ||
	    { diag "$tmp/s1.$1"; diag "$tmp/alice.out"; }
	ctl phone-group-send "$S" "$G" "$1 two" >"$tmp/s2.$1" 2>&1
	id2=$(json_str id "$tmp/s2.$1")
	check "$1 group: the second (skmsg only, sender in the group's namespace) carries no SKDM" \
	    grep -q '"skdm":\[\]' "$tmp/s2.$1" || diag "$tmp/s2.$1"
	check "$1 group: wachat reads it" \
	    wait_grep "$tmp/alice.out" "^dm-message $G $id2 from_me=0 .*: $1 two\$" 600 ||
	    { grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
	check "$1 group: at the first try (no retry receipt from wachat)" \
	    test "$(retries "$id2" "$AD")" -eq 0 ||
	    ctl messages | tr '{' '\n' | grep "$id2" | sed 's/^/# /'
	check "$1 group: none for the first message either" \
	    test "$(retries "$id1" "$AD")" -eq 0
}
flip_case lid ""
flip_case pn --pn
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
