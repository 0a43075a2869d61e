#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A contact reinstalls and the server says so (issue 16, point 6;
# protocol.md 11.7: <notification type="encrypt" from=USER><identity/>).
# alice's wachat engine (tests/wa-eng-driver, real store) and simulated
# phones through wachat-sim.
#  (a) alice and sim 1 have a session both ways; sim 1 reinstalls (new
#      identity and prekeys, its sessions gone) and the sim sends alice the
#      identity notification: alice acks it, and her next message to
#      sim 1 goes as a pkmsg on a fresh bundle, which sim 1's phone reads
#      at once (no failure, no retry receipt); the chat shows one
#      "security code changed" line.
#  (d) a notification for a user alice knows nothing of is acked and
#      changes nothing: no line, and her session with sim 2 is kept (the
#      next message to it is a msg that sim 2 reads).
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AJ=$A@s.whatsapp.net
M1=15559000001
M1J=$M1@s.whatsapp.net
M2=15559000002
M2J=$M2@s.whatsapp.net
X=15557000009

# routed ID TO ENC: the sim routed alice's message ID to device TO, each
# time (a resend too) with the one enc type ENC.
routed() {
	ctl messages | tr '{' '\n' | grep -E "^\"seq\":[0-9]+,\"kind\":\"message\",\"id\":\"$1\",\"type\":\"[a-z]*\",\"from\":\"$A:[0-9]+@s.whatsapp.net\",\"to\":\"$2\"," >"$tmp/rt"
	[ -s "$tmp/rt" ] && ! grep -vq "\"enc\":\[\"$3\"\]" "$tmp/rt"
}

# acked FROM: the sim queued the identity notification from FROM and
# alice's device acked it.
acked() {
	ctl messages | tr '{' '\n' | grep "\"kind\":\"notification\",\"id\":\"sim-id-[0-9]*\",\"type\":\"encrypt\",\"from\":\"$1\",\"to\":\"$A:[0-9]*@s.whatsapp.net\"" >"$tmp/nt"
	[ -s "$tmp/nt" ] && ! grep -q '"acked":false' "$tmp/nt"
}

# notices JID: how many "security code changed" lines alice's chat with
# JID has.
notices() {
	grep -c "^dm-message $1 [^ ]* from_me=0 state=received notice=1 note=identity " "$tmp/alice.out"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "contacts" --pn $A sim:2 >"$tmp/g" 2>&1
check "alice and two simulated phones" grep -q '"id"' "$tmp/g" ||
    diag "$tmp/g"
ctl account $X 100000000000009 stranger >/dev/null
check "alice's engine links and logs in" alice_start
check "... and uploads its prekeys" \
    wait_grep "$tmp/alice.out" '^prekeys-uploaded ' 300
for m in $M1 $M2; do
	ctl phone-send $m "$AJ" "hello from $m" >"$tmp/s0" 2>&1
	check "sim $m writes to alice: she reads it (a session)" \
	    wait_grep "$tmp/alice.out" "^dm-message $m@s.whatsapp.net [0-9A-F]+ from_me=0 .*: hello from $m\$" 300 ||
	    diag "$tmp/s0"
done
id0=$(alice_send "$M1J" "before")
check "alice answers sim 1 on that session (a msg)" \
    wait_ctl '"text":"before"' phone-inbox $M1
check "... routed as a msg" routed "$id0" "$M1J" msg ||
    ctl messages | tr '{' '\n' | grep "$id0" | sed 's/^/# /'

# (a)
ctl phone-reinstall $M1 pn >"$tmp/r1" 2>&1
nid=$(sed -n 's/.*"notified":\([0-9]*\).*/\1/p' "$tmp/r1")
check "sim 1 reinstalls; the server tells the other accounts' devices" \
    test "${nid:-0}" -ge 1 || diag "$tmp/r1"
check "alice acks the identity notification" \
    wait_for acked "$M1J" || diag "$tmp/nt"
check "... and the chat shows a \"security code changed\" line" \
    wait_grep "$tmp/alice.out" "^dm-message $M1J [^ ]* from_me=0 state=received notice=1 note=identity " 300
id1=$(alice_send "$M1J" "after the reinstall")
check "sim 1's new phone reads alice's next message" \
    wait_ctl '"text":"after the reinstall"' phone-inbox $M1 ||
    { diag "$tmp/wc"; grep "phone $M1" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... sent as a pkmsg (a fresh bundle, not the dead session)" \
    routed "$id1" "$M1J" pkmsg ||
    ctl messages | tr '{' '\n' | grep "$id1" | sed 's/^/# /'
check "... which the phone decrypted the first time (no failure)" \
    grep -q '"failed":0,' "$tmp/wc" || diag "$tmp/wc"
check "... and no retry receipt" \
    test "$(retries "$id1" "$M1J")" -eq 0
check "the chat has exactly one \"security code changed\" line" \
    test "$(notices "$M1J")" -eq 1 ||
    grep "^dm-message $M1J" "$tmp/alice.out" | sed 's/^/# /'

# (d)
ctl phone-reinstall $X pn >"$tmp/r2" 2>&1
check "a stranger reinstalls; alice acks the notification" \
    wait_for acked "$X@s.whatsapp.net" || { diag "$tmp/r2"; diag "$tmp/nt"; }
id2=$(alice_send "$M2J" "still here")
check "alice's next message to sim 2 reads" \
    wait_ctl '"text":"still here"' phone-inbox $M2 || diag "$tmp/wc"
check "... on the session she had (a msg)" routed "$id2" "$M2J" msg ||
    ctl messages | tr '{' '\n' | grep "$id2" | sed 's/^/# /'
check "... no line for the stranger, none for sim 2" \
    test "$(notices "$X@s.whatsapp.net")" -eq 0 -a "$(notices "$M2J")" -eq 0
check "... and still one line for sim 1" test "$(notices "$M1J")" -eq 1
check "alice's log has no key and no text of a message" \
    no_line "$tmp/alice.err" 'after the reinstall|still here'
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
