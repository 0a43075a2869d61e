#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A group member reinstalls and the server says so (issue 16, point 6;
# protocol.md 11.7, 10.4).  alice's wachat engine (tests/wa-eng-driver,
# real store) and a PN group of alice and two simulated phones.  sim 1
# reinstalls and the sim sends alice <notification type="encrypt"
# from=sim 1's LID><identity/>: her sessions with sim 1 (kept under its
# PN) and the memory that sim 1 holds her sender key go, so her next group
# message carries a fresh SKDM to sim 1 on a new session, which sim 1
# reads at once (no retry receipt); sim 2, unchanged, gets the skmsg
# alone; sim 1's chat shows one "security code changed" line.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
M1=15559000001
M1J=$M1@s.whatsapp.net
M2=15559000002
M2J=$M2@s.whatsapp.net

# routed ID TO ENCS: the sim routed alice's message ID to device TO, each
# time (a resend too) with the enc types ENCS ('"pkmsg","skmsg"').
routed() {
	ctl messages | tr '{' '\n' | grep -E "^\"seq\":[0-9]+,\"kind\":\"message\",\"id\":\"$1\",\"type\":\"[a-z]*\",\"from\":\"$A:[0-9]+@s.whatsapp.net\",\"to\":\"$2\"," >"$tmp/rt"
	[ -s "$tmp/rt" ] && ! grep -vq "\"enc\":\[$3\]" "$tmp/rt"
}

# acked FROM: alice's device acked the identity notification from FROM.
acked() {
	ctl messages | tr '{' '\n' | grep "\"kind\":\"notification\",\"id\":\"sim-id-[0-9]*\",\"type\":\"encrypt\",\"from\":\"$1\",\"to\":\"$A:[0-9]*@s.whatsapp.net\"" >"$tmp/nt"
	[ -s "$tmp/nt" ] && ! grep -q '"acked":false' "$tmp/nt"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "reinstalls" --pn $A sim:2 >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
check "a PN group of alice and two phones" test "$G" != "@g.us" || diag "$tmp/g"
L1=$(ctl accounts | tr '{' '\n' | sed -n "s/.*\"pn\":\"$M1\",\"lid\":\"\([0-9]*\)\".*/\1/p" | head -n 1)
check "sim 1 has a LID" test -n "$L1" || ctl accounts | sed 's/^/# /'
check "alice's engine links and logs in" alice_start
id0=$(alice_send "$G" "before")
check "the first group message reaches every phone" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id0" || diag "$tmp/wc"

ctl phone-reinstall $M1 lid >"$tmp/r1" 2>&1
check "sim 1 reinstalls; the server tells alice from sim 1's LID" \
    wait_for acked "$L1@lid" || { diag "$tmp/r1"; diag "$tmp/nt"; }
check "... and sim 1's chat shows a \"security code changed\" line" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J [^ ]* from_me=0 state=received notice=1 note=identity " 300 ||
    grep '^dm-message' "$tmp/alice.out" | sed 's/^/# /'
id1=$(alice_send "$G" "after the reinstall")
check "sim 1, reinstalled, reads alice's next group message" \
    wait_ctl '"text":"after the reinstall"' group-inbox $M1 "$G" ||
    { diag "$tmp/wc"; grep "phone $M1" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... which gave it a fresh SKDM on a new session (pkmsg, then skmsg)" \
    routed "$id1" "$M1J" '"pkmsg","skmsg"' ||
    ctl messages | tr '{' '\n' | grep "$id1" | sed 's/^/# /'
check "... read at once: no retry receipt from sim 1" \
    test "$(retries "$id1" "$M1J")" -eq 0
check "sim 2, unchanged, got the skmsg alone" \
    routed "$id1" "$M2J" '"skmsg"' ||
    ctl messages | tr '{' '\n' | grep "$id1" | sed 's/^/# /'
check "every phone read it" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id1" || diag "$tmp/wc"
check "one \"security code changed\" line for sim 1, none for sim 2" \
    test "$(grep -c "^dm-message $M1J [^ ]* from_me=0 state=received notice=1 note=identity " "$tmp/alice.out")" -eq 1 -a \
    "$(grep -c "^dm-message $M2J [^ ]* .*note=identity " "$tmp/alice.out")" -eq 0 ||
    grep '^dm-message' "$tmp/alice.out" | sed 's/^/# /'
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
