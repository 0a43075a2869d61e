#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The reset after a contact's identity changed outlives a restart (issue
# 16, point 6; protocol.md 11.7, 11.6).  alice's wachat engine
# (tests/wa-eng-driver, real store) and a simulated phone, sim 1, with a
# session both ways.  With alice stopped, sim 1 reinstalls: the identity
# notification waits in her offline queue; she logs in, takes and acks it
# (offline="1"), and stops again before she sends anything.  After the
# restart her next message to sim 1 still goes as a pkmsg on a fresh
# bundle, which sim 1's new phone reads at once; the chat has one
# "security code changed" line, not one more after the restart.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AJ=$A@s.whatsapp.net
M1=15559000001
M1J=$M1@s.whatsapp.net

# routed ID TO ENC: the sim routed alice's message ID to device TO, each
# time (a resend too) with the one enc type ENC.
routed() {
	ctl messages | tr '{' '\n' | grep -E "^\"seq\":[0-9]+,\"kind\":\"message\",\"id\":\"$1\",\"type\":\"[a-z]*\",\"from\":\"$A:[0-9]+@s.whatsapp.net\",\"to\":\"$2\"," >"$tmp/rt"
	[ -s "$tmp/rt" ] && ! grep -vq "\"enc\":\[\"$3\"\]" "$tmp/rt"
}

# acked FROM: alice's device acked the identity notification from FROM.
acked() {
	ctl messages | tr '{' '\n' | grep "\"kind\":\"notification\",\"id\":\"sim-id-[0-9]*\",\"type\":\"encrypt\",\"from\":\"$1\",\"to\":\"$A:[0-9]*@s.whatsapp.net\"" >"$tmp/nt"
	[ -s "$tmp/nt" ] && ! grep -q '"acked":false' "$tmp/nt"
}

notices() {
	grep -c "^dm-message $M1J [^ ]* from_me=0 state=received notice=1 note=identity " "$tmp/alice.out"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "contacts" --pn $A sim:1 >"$tmp/g" 2>&1
check "alice and a simulated phone, sim 1" grep -q '"id"' "$tmp/g" ||
    diag "$tmp/g"
check "alice's engine links and logs in" alice_start
check "... and uploads its prekeys" \
    wait_grep "$tmp/alice.out" '^prekeys-uploaded ' 300
ctl phone-send $M1 "$AJ" "first words" >"$tmp/s0" 2>&1
check "sim 1 writes to alice: she reads it (a session)" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J [0-9A-F]+ from_me=0 .*: first words\$" 300 ||
    diag "$tmp/s0"
id0=$(alice_send "$M1J" "before")
check "alice answers on that session (a msg), sim 1 reads it" \
    wait_ctl '"text":"before"' phone-inbox $M1
check "... routed as a msg" routed "$id0" "$M1J" msg
alice_stop

ctl phone-reinstall $M1 pn >"$tmp/r1" 2>&1
check "with alice stopped, sim 1 reinstalls: the notification waits for her" \
    grep -q '"notified":[1-9]' "$tmp/r1" || diag "$tmp/r1"
check "alice logs in again" alice_start
check "... takes the notification from her offline queue and acks it" \
    wait_for acked "$M1J" || diag "$tmp/nt"
check "... it came offline" grep -q '"offline_deliveries":1,' "$tmp/nt" ||
    diag "$tmp/nt"
check "... and the chat shows a \"security code changed\" line" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J [^ ]* from_me=0 state=received notice=1 note=identity " 300
alice_stop
check "alice restarts before sending anything" alice_start
id1=$(alice_send "$M1J" "after the restart")
check "sim 1's new phone reads alice's next message" \
    wait_ctl '"text":"after the restart"' phone-inbox $M1 ||
    { diag "$tmp/wc"; grep "phone $M1" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... sent as a pkmsg (the reset was kept)" routed "$id1" "$M1J" pkmsg ||
    ctl messages | tr '{' '\n' | grep "$id1" | sed 's/^/# /'
check "... decrypted the first time (no failure)" \
    grep -q '"failed":0,' "$tmp/wc" || diag "$tmp/wc"
check "... and no retry receipt" test "$(retries "$id1" "$M1J")" -eq 0
check "the chat has exactly one \"security code changed\" line" \
    test "$(notices)" -eq 1 ||
    grep "^dm-message $M1J" "$tmp/alice.out" | sed 's/^/# /'
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
