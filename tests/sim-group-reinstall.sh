#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A group member who reinstalls (new identity key and registration id,
# same device; issue 15, point 2).  alice's wachat engine
# (tests/wa-eng-driver, real store) and a PN group of alice and two
# simulated phones.
#  (a) sim 1 reinstalls; wachat's next group message reaches it as skmsg
#      only (wachat cannot know yet): its one retry receipt names the new
#      registration id, and wachat's answer must come from a fresh bundle,
#      so sim 1 reads it after exactly one retry receipt.
#  (b) sim 2 reinstalls and writes to alice first (a pkmsg with its new
#      identity): wachat's next group message must carry a fresh SKDM for
#      it, so sim 2 reads it with no retry receipt at all.
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
A=15550000001
AJ=$A@s.whatsapp.net
M1=15559000001
M2=15559000002

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl group-create "reinstalls" --pn $A sim:2 >"$tmp/g" 2>&1
G=$(json_str id "$tmp/g")@g.us
check "a PN group of alice and two phones" test "$G" != "@g.us" || diag "$tmp/g"
check "alice's engine links and logs in" alice_start
id0=$(alice_send "$G" "before")
check "the first group message reaches every phone" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id0" || diag "$tmp/wc"

# (a)
ctl phone-reinstall $M1 >/dev/null 2>&1
id1=$(alice_send "$G" "after the reinstall")
check "sim 1, reinstalled, reads wachat's next group message" \
    wait_ctl '"text":"after the reinstall"' group-inbox $M1 "$G" ||
    { diag "$tmp/wc"; grep "phone $M1" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... after exactly one retry receipt (the first answer came from a fresh bundle)" \
    test "$(retries "$id1" "$M1@s.whatsapp.net")" -eq 1 ||
    ctl messages | tr '{' '\n' | grep "$id1" | sed 's/^/# /'
check "... and the chat notes sim 1's new security code" \
    wait_grep "$tmp/alice.out" "^dm-message $M1@s.whatsapp.net [^ ]* from_me=0 state=received notice=1 note=identity quoted=-: " 600

# (b)
ctl phone-reinstall $M2 >/dev/null 2>&1
ctl phone-send $M2 "$AJ" "I reinstalled" >"$tmp/s2" 2>&1
check "sim 2, reinstalled, writes to alice: she reads it" \
    wait_grep "$tmp/alice.out" "^dm-message $M2@s.whatsapp.net [0-9A-F]+ from_me=0 .*: I reinstalled\$" 600 ||
    diag "$tmp/s2"
id2=$(alice_send "$G" "after sim 2 wrote")
check "wachat's next group message reaches sim 2" \
    wait_ctl '"text":"after sim 2 wrote"' group-inbox $M2 "$G" || diag "$tmp/wc"
check "... with a fresh SKDM: no retry receipt from sim 2" \
    test "$(retries "$id2" "$M2@s.whatsapp.net")" -eq 0 ||
    ctl messages | tr '{' '\n' | grep "$id2" | sed 's/^/# /'
check "... every phone read it" \
    wait_ctl '"decrypted":3' group-delivery "$G" "$id2" || diag "$tmp/wc"
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
