#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A malformed <call> is acked and logged, never a crash (issue 16 point
# 2; protocol-features.md 5): the sim's contact Bob sends alice's wachat
# engine (tests/wa-eng-driver, real store) a <call> whose offer has no
# call-id and a call-creator that is no JID, with a child no reader
# knows.  wachat acks it (the sim holds no unacked call, no unmatched
# ack), logs that it cannot be read, and goes on: a real call after it
# is acked too, and a message to Bob is still sent.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
# A driver that ended (its deadline, on a client that fails the checks)
# must not end the script at "quit" to its fifo: every check reports.
trap '' PIPE
A=15550000001
BOB=15550000002

# calls_acked N: the sim routed N <call> stanzas and holds none unacked.
calls_acked() {
	ctl messages | grep -o '"kind":"call"[^}]*' >"$tmp/calls"
	[ "$(wc -l <"$tmp/calls")" -eq "$1" ] &&
	    ! grep -q '"acked":false' "$tmp/calls"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl contact $BOB 100000000000002 Bob $A >/dev/null
check "alice's engine links and logs in" alice_start
ctl call $BOB $A --malformed >"$tmp/c1" 2>&1
check "the sim sends the malformed call to alice's device" \
    grep -q '"devices":1' "$tmp/c1" || diag "$tmp/c1"
check "wachat acks it" wait_cmd "$WAIT" calls_acked 1
[ $? -eq 0 ] || diag "$tmp/calls"
check "... and logs that it cannot be read" \
    wait_grep "$tmp/alice.err" 'call sim-call-[0-9]+ \(offer\): cannot be read'
[ $? -eq 0 ] || tail -n 20 "$tmp/alice.err" | sed 's/^/# /'
ctl call $BOB $A --end hangup --after 100 >"$tmp/c2" 2>&1
check "a real call after it: offer and terminate acked" \
    wait_cmd "$WAIT" calls_acked 3
[ $? -eq 0 ] || { diag "$tmp/calls"; tail -n 20 "$tmp/alice.err" | sed 's/^/# /'; }
ctl status >"$tmp/st" 2>&1
check "no ack that did not match" grep -q '"unmatched_acks":0' "$tmp/st"
# A group call: its terminate carries no group-jid; both lines go to the
# group's chat, none to the caller's.
ctl group-create "calls" --creator $A $A $BOB >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
ctl call $BOB $A --group "$G" --after 300 >"$tmp/c3" 2>&1
CID=$(json_str call_id "$tmp/c3")
check "a group call: 'incoming' then 'missed' in the group's chat" \
    wait_grep "$tmp/alice.out" "^dm-message $G wachat-call-$CID-end from_me=0 .*note=call-missed"
[ $? -eq 0 ] || { diag "$tmp/c3"; grep '^dm-message' "$tmp/alice.out" | sed 's/^/# /'; }
check "... the incoming line in the group's chat too, and none of this call in Bob's 1:1 chat" \
    sh -c "[ -n '$CID' ] && grep -q '^dm-message $G wachat-call-$CID-in from_me=0 .*note=call-in' '$tmp/alice.out' &&
    ! grep -q '^dm-message $BOB@s.whatsapp.net wachat-call-$CID-' '$tmp/alice.out'"
[ $? -eq 0 ] || grep '^dm-message' "$tmp/alice.out" | sed 's/^/# /'
id=$(alice_send "$BOB@s.whatsapp.net" "still here")
check "the engine goes on: a message to Bob is delivered" \
    wait_grep "$tmp/alice.out" "^dm-state $BOB@s.whatsapp.net $id delivered\$"
[ $? -eq 0 ] || diag "$tmp/alice.out"
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
