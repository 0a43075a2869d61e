#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A group notification's ack carries its participant (issue 16 point 3;
# protocol.md 11.7, real-server.md row 22): the sim keeps each
# <notification> it routes to a device until that device acks it with a
# matching (id, class, participant, recipient), sends it again at the
# device's next login until then, and counts the acks that did not match.
# alice's wachat engine (tests/wa-eng-driver, real store) is in a PN and
# a LID group of hers with two simulated phones; she removes a member
# and adds it back in each (w:gp2 remove and add, participant= alice in
# the group's namespace).  wachat acks each notification with its
# participant: the sim holds none unacked and counts no unmatched ack;
# after a restart nothing is sent again.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
# A driver that ended (its deadline, on a client that fails the checks)
# must not end the script at "quit" to its fifo: every check reports.
trap '' PIPE
A=15550000001

# notes_acked N: the sim routed N notifications to alice's companion
# (device 1, PN or LID) and holds none of them unacked.
notes_acked() {
	ctl messages | grep -o '"kind":"notification"[^}]*' |
	    grep -E '"to":"(15550000001|100000000000001):1@' >"$tmp/notes"
	[ "$(wc -l <"$tmp/notes")" -eq "$1" ] &&
	    ! grep -q '"acked":false' "$tmp/notes"
}
status_has() {
	ctl status >"$tmp/status.json" 2>&1
	grep -q "$1" "$tmp/status.json"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "acks pn" --pn $A sim:2 >"$tmp/g1" 2>&1
ctl group-create "acks lid" $A sim:2 >"$tmp/g2" 2>&1
G1=$(json_str id "$tmp/g1")@g.us
G2=$(json_str id "$tmp/g2")@g.us
check "a PN group and a LID group of alice and two phones" \
    sh -c "[ '$G1' != '@g.us' ] && [ '$G2' != '@g.us' ]" ||
    { diag "$tmp/g1"; diag "$tmp/g2"; }
# remove_add WHAT G M N PART: alice's phone removes M from group G and
# adds it back; then the sim holds N notifications for her companion,
# all acked, naming PART (a JID) as participant.
remove_add() {
	ctl group-remove "$2" "$3" >"$tmp/r" 2>&1
	ctl group-add "$2" "$3" >"$tmp/a" 2>&1
	check "$1 group: remove and add are acked with their participant" \
	    wait_cmd "$WAIT" notes_acked "$4"
	[ $? -eq 0 ] || { diag "$tmp/notes"; diag "$tmp/r"; }
	check "... the notifications name alice ($5) as participant" \
	    grep -q "\"participant\":\"$5\"" "$tmp/notes"
}
check "alice's engine links and logs in" alice_start
# sim 2, the PN group's second phone; sim 4, the LID group's
remove_add PN "$G1" 15559000002 2 "$A@s.whatsapp.net"
remove_add LID "$G2" 15559000004 4 100000000000001@lid
check "the sim counted no ack that did not match" \
    status_has '"unmatched_acks":0'
[ $? -eq 0 ] || { diag "$tmp/status.json"; grep 'does not match' "$tmp/sim.log" | sed 's/^/# /'; }
alice_stop
check "alice's engine logs in again" alice_start
check "nothing is sent again at the login (redeliveries 0)" \
    status_has '"redeliveries":0'
[ $? -eq 0 ] || diag "$tmp/status.json"
check "... the four are acked, each delivered once" \
    eval 'notes_acked 4 && ! grep -q "\"deliveries\":[^1]" "$tmp/notes"'
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
