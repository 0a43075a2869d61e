#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A contact's message on a session wachat can no longer use costs one
# retry receipt, not two (issue 15, point 1; protocol.md 9.6).  alice's
# wachat engine (tests/wa-eng-driver, real store) and a simulated phone,
# sim 1, that has written to her (a session both ways).  With wachat
# stopped its stored session with sim 1 is overwritten with bytes that do
# not deserialize (sqlite3).  sim 1 writes again, on its old session:
# wachat quarantines the record and cannot decrypt, so its retry receipt
# carries <keys> (identity, a fresh one-time prekey, signed prekey,
# device identity; whatsmeow sendRetryReceipt), sim 1's phone builds a
# new session from them (as phones answer a 1:1 retry receipt) and sends
# the message again as a pkmsg: wachat shows it after exactly one retry
# receipt, once.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AJ=$A@s.whatsapp.net
M1=15559000001
M1J=$M1@s.whatsapp.net

command -v sqlite3 >/dev/null 2>&1 || { echo "Bail out! sqlite3 is needed"; exit 1; }
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "contacts" --pn $A sim:1 >"$tmp/g" 2>&1
check "alice and a simulated phone, sim 1" grep -q '"id"' "$tmp/g" ||
    diag "$tmp/g"
check "alice's engine links and logs in" alice_start
check "... and uploads its prekeys (sim 1 can reach it)" \
    wait_grep "$tmp/alice.out" '^prekeys-uploaded ' 300
ctl phone-send $M1 "$AJ" "first words" >"$tmp/s0" 2>&1
check "sim 1 writes to alice: she reads it (a session with its phone)" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J [0-9A-F]+ from_me=0 .*: first words\$" 300 ||
    { diag "$tmp/s0"; diag "$tmp/alice.out"; }
alice_stop

corrupt() {
	sqlite3 "$tmp/alice.d/wachat.db" \
	    "UPDATE session SET record = X'0A0BDEADBEEF00FF' || randomblob(40) WHERE name = '$M1';
	     SELECT changes();"
}
check "alice's stored session with sim 1 is overwritten with garbage" \
    test "$(corrupt)" = 1
check "alice's engine logs in again" alice_start
ctl phone-send $M1 "$AJ" "after the damage" >"$tmp/s1" 2>&1
id=$(json_str id "$tmp/s1")
check "sim 1 writes again (on its old session)" test -n "$id" ||
    diag "$tmp/s1"
check "alice reads it" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J $id from_me=0 .*: after the damage\$" 300 ||
    { diag "$tmp/alice.out"; grep "phone $M1" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... after exactly one retry receipt" \
    test "$(retries "$id" "$AJ|$A:[0-9]+@s.whatsapp.net")" -eq 1 ||
    ctl messages | tr '{' '\n' | grep "$id" | sed 's/^/# /'
check "... which carried wachat's keys" \
    grep -q "message $id: our keys go with retry receipt 1" "$tmp/alice.err"
check "... answered by sim 1's phone from those keys" \
    grep -q "phone $M1: message $id resent to $A:[0-9]*@s.whatsapp.net (retry 1, keys)" "$tmp/sim.log" ||
    grep "phone $M1" "$tmp/sim.log" | tail -n 10 | sed 's/^/# /'
check "... the corrupt record was quarantined" \
    grep -q 'does not deserialize: quarantined' "$tmp/alice.err"
check "... and shown once" \
    test "$(grep -c "^dm-message $M1J $id " "$tmp/alice.out")" -eq 1
ctl phone-send $M1 "$AJ" "and once more" >"$tmp/s2" 2>&1
id2=$(json_str id "$tmp/s2")
check "sim 1's next message reads at once on the new session" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J $id2 from_me=0 .*: and once more\$" 300 ||
    diag "$tmp/alice.out"
check "... with no retry receipt" \
    test "$(retries "$id2" "$AJ|$A:[0-9]+@s.whatsapp.net")" -eq 0
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
