#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The simulated phones of wachat-sim (tests/sim/phone.c) against wachat's
# engine (tests/wa-eng-driver --messaging, real store): alice's engine is
# her companion; "Echo" and bob are contacts whose phones run real Signal
# sessions.
#  (a) alice sends to Echo: the phone decrypts it, her message goes
#      delivered then read, and "echo: TEXT" comes back;
#  (b) bob's phone is told to send (ctl phone-send): alice gets it, and
#      bob's phone gets her delivery receipt;
#  (c) alice's own phone sends to bob in her name: alice's engine stores
#      it as her own (deviceSentMessage), bob's phone reads it;
#  (d) the phones' inboxes (admin) show what alice sent, decrypted,
#      including the deviceSentMessage copy on alice's own phone;
#  and a reply and a reaction from a phone, and the refusals; and a
#  chatty contact (ctl contact --chatty) writes to its owner within its
#  period once the owner has a linked companion, not before, to no one
#  else.
# TAP.  Every wait is bounded; everything is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
DRV="$b/tests/wa-eng-driver"
A=15550000001
E=15550000002
B=15550000003
AJ=$A@s.whatsapp.net
EJ=$E@s.whatsapp.net
BJ=$B@s.whatsapp.net

# failed_now: true once after each failed check (to show diagnostics).
seen_failed=0
failed_now() {
	[ "$failed" -gt "$seen_failed" ] || return 1
	seen_failed=$failed
}

# inbox PN: PN's phone, as JSON on one line.
inbox() {
	ctl phone-inbox "$1" 2>/dev/null
}

need mkfifo curl
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
check "a contact named Echo is an echo" sh -c \
    "'$SIM' ctl --admin '$ADMIN' contact $E 100000000000002 Echo $A | grep -q '\"echo\":true'"
check "ctl contact --echo makes one too; bob is none" sh -c \
    "'$SIM' ctl --admin '$ADMIN' contact 15550000009 100000000000009 Parrot $A --echo | grep -q '\"echo\":true' &&
     '$SIM' ctl --admin '$ADMIN' contact $B 100000000000003 bob $A | grep -q '\"echo\":false'"

rm -f "$tmp/alice.in"
mkfifo "$tmp/alice.in"
"$DRV" --url "$URL" --root "$ROOT_PUB" --store "$tmp/alice.d" \
    --qr-file "$tmp/alice.qr" --messaging --commands \
    --deadline-ms 60000 <"$tmp/alice.in" >"$tmp/alice.out" \
    2>"$tmp/alice.err" &
alice_pid=$!
bg_pids="$bg_pids $alice_pid"
exec 3>"$tmp/alice.in"
wait_grep "$tmp/alice.qr" 'https://' &&
    ctl scan-qr "$(cat "$tmp/alice.qr")" $A >/dev/null 2>&1
check "alice's engine links and logs in" wait_grep "$tmp/alice.out" '^connected '
wait_grep "$tmp/alice.out" '^prekeys-uploaded '

# (a) the echo.
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $EJ hello echo" >&3
id=$(queued_after "$tmp/alice.out" "$nq")
check "alice's message $id to Echo is delivered (the phone's receipt)" \
    wait_grep "$tmp/alice.out" "^dm-state $EJ $id delivered\$"
check "... then read" wait_grep "$tmp/alice.out" "^dm-state $EJ $id read\$"
check "... and \"echo: hello echo\" comes back from Echo" \
    wait_grep "$tmp/alice.out" "^dm-message $EJ [0-9A-F]+ from_me=0 .*: echo: hello echo\$"
failed_now && { diag "$tmp/alice.out"; diag "$tmp/sim.log"; }
eid=$(sed -n "s/^dm-message $EJ \\([0-9A-F]*\\) from_me=0 .*: echo: hello echo\$/\\1/p" "$tmp/alice.out" | head -n 1)
check "the echo's read receipt came before its answer" sh -c \
    "grep -n '^dm-state $EJ $id read\$' '$tmp/alice.out' | head -n 1 | cut -d: -f1 >'$tmp/l1';
     grep -n '^dm-message $EJ $eid ' '$tmp/alice.out' | head -n 1 | cut -d: -f1 >'$tmp/l2';
     [ \"\$(cat '$tmp/l1')\" -lt \"\$(cat '$tmp/l2')\" ]"

# (d) what the phones decrypted.
check "Echo's phone inbox holds alice's text, decrypted, from her companion" \
    wait_ctl "\"id\":\"$id\",\"from\":\"$A:1@s.whatsapp.net\",\"enc\":\"pkmsg\",.*\"kind\":\"text\",\"text\":\"hello echo\"" phone-inbox $E
failed_now && diag "$tmp/wc"
check "... it counts one echo, no failure" \
    wait_ctl '"decrypted":[1-9][0-9]*,"failed":0,.*"echoes":1,' phone-inbox $E
check "alice's own phone got the deviceSentMessage copy (destination Echo)" \
    wait_ctl "\"id\":\"$id\",\"from\":\"$A:1@s.whatsapp.net\",.*\"text\":\"hello echo\",\"dsm_destination\":\"$EJ\"" phone-inbox $A
failed_now && diag "$tmp/wc"
check "alice's phone also took Echo's answer (every device of the addressee)" \
    wait_ctl "\"id\":\"$eid\",\"from\":\"$EJ\",.*\"text\":\"echo: hello echo\"" phone-inbox $A

# (b) bob's phone sends.
ctl phone-send $B $AJ "hi from bob's phone" >"$tmp/send1.json" 2>&1
bid=$(sed -n 's/.*"id":"\([0-9A-F]*\)".*/\1/p' "$tmp/send1.json")
check "ctl phone-send from bob's phone: message ${bid:-none}, pkmsg to alice's companion" \
    grep -q "\"jid\":\"$A:1@s.whatsapp.net\",\"enc\":\"pkmsg\"" "$tmp/send1.json"
failed_now && diag "$tmp/send1.json"
check "alice gets it (from_me=0)" \
    wait_grep "$tmp/alice.out" "^dm-message $BJ $bid from_me=0 .*: hi from bob's phone\$"
check "bob's phone gets alice's delivery receipt for it" \
    wait_ctl "\"receipts\":\\[[^]]*\"id\":\"$bid\",\"from\":\"$A:1@s.whatsapp.net\",\"type\":\"delivery\"" phone-inbox $B

# alice answers bob: his phone reads it; the phone's next message is a
# msg on the session alice's answer confirmed.
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $BJ hello bob" >&3
aid=$(queued_after "$tmp/alice.out" "$nq")
check "alice's answer $aid reaches bob's phone (delivered)" \
    wait_grep "$tmp/alice.out" "^dm-state $BJ $aid delivered\$"
check "... which decrypted it (msg, on the session of its pkmsg)" \
    wait_ctl "\"id\":\"$aid\",\"from\":\"$A:1@s.whatsapp.net\",\"enc\":\"msg\",.*\"text\":\"hello bob\"" phone-inbox $B
ctl phone-send $B $AJ "quoting alice" "$bid" >"$tmp/send2.json" 2>&1
rid=$(sed -n 's/.*"id":"\([0-9A-F]*\)".*/\1/p' "$tmp/send2.json")
check "a reply from bob's phone arrives quoting $bid" \
    wait_grep "$tmp/alice.out" "^dm-message $BJ $rid from_me=0 .* quoted=$bid: quoting alice\$"
check "... encrypted as msg for alice's companion now" \
    grep -q "\"jid\":\"$A:1@s.whatsapp.net\",\"enc\":\"msg\"" "$tmp/send2.json"
failed_now && diag "$tmp/send2.json"
ctl phone-react $B $AJ "$bid" "👍" >/dev/null 2>&1
check "a reaction from bob's phone arrives" \
    wait_grep "$tmp/alice.out" "^dm-reaction $BJ $bid .*: 👍\$"

# A 10,000-deep quoted message: rejected (the nesting limit), acked, and
# the chat goes on.
curl -s -m 60 -X POST -H 'Content-Type: application/json' \
    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",\"nest\":10000}" \
    "$ADMIN/admin/mock-phone/send" >"$tmp/deep.json" 2>&1
did=$(sed -n 's/.*"id":"\([0-9A-F]*\)".*/\1/p' "$tmp/deep.json")
acked_deep() {
	ctl messages | tr '{' '\n' | grep "\"id\":\"$did\"" |
	    grep "\"to\":\"$A:1@s.whatsapp.net\"" | grep -q '"acked":true'
}
check "a 10,000-deep quoted message ($did) is acked by alice's engine" \
    wait_for acked_deep ||
    diag "$tmp/deep.json"
check "... not stored or shown" sh -c "! grep -q '^dm-message $BJ $did ' '$tmp/alice.out'"
ctl phone-send $B $AJ "still here" >/dev/null 2>&1
check "... and the chat goes on: the next message arrives" \
    wait_grep "$tmp/alice.out" "^dm-message $BJ .*: still here\$"
check "... alice's engine still runs" running "$alice_pid"

# (c) alice's own phone sends in her name.
ctl phone-send $A $BJ "sent from my phone" >"$tmp/send3.json" 2>&1
oid=$(sed -n 's/.*"id":"\([0-9A-F]*\)".*/\1/p' "$tmp/send3.json")
# Both sessions exist already (bob's phone wrote to alice's phone; alice's
# companion wrote to her phone): msg for both.
check "alice's phone sends to bob: a copy for bob's phone and alice's companion" \
    grep -q "\"devices\":\[{\"jid\":\"$BJ\",\"enc\":\"msg\"},{\"jid\":\"$A:1@s.whatsapp.net\",\"enc\":\"msg\"}\]" "$tmp/send3.json"
failed_now && diag "$tmp/send3.json"
check "alice's engine stores it as her own, in the chat with bob" \
    wait_grep "$tmp/alice.out" "^dm-message $BJ $oid from_me=1 .*: sent from my phone\$"
failed_now && { diag "$tmp/alice.out"; grep "$oid" "$tmp/sim.log" | sed 's/^/# /'; }
check "bob's phone reads it, from alice's phone" \
    wait_ctl "\"id\":\"$oid\",\"from\":\"$AJ\",\"enc\":\"msg\",.*\"text\":\"sent from my phone\"" phone-inbox $B
failed_now && { diag "$tmp/wc"; diag "$tmp/send3.json"; }

# Refusals.
check "phone-send from an unknown account: 404" sh -c \
    "'$SIM' ctl --admin '$ADMIN' phone-send 15559999999 $BJ x 2>&1 | grep -q 'no such account'"
ctl phone-send $A $AJ "to myself" >"$tmp/bad.json" 2>&1
check "phone-send to the own account or a device JID: 400" sh -c \
    "grep -q 'user JID' '$tmp/bad.json' &&
     '$SIM' ctl --admin '$ADMIN' phone-send $A $B:1@s.whatsapp.net x 2>&1 | grep -q 'user JID'"
check "phone-inbox of an unknown account fails" sh -c \
    "! '$SIM' ctl --admin '$ADMIN' phone-inbox 15559999999 >/dev/null 2>&1"

# (alice's own phone cannot read the 10,000-deep message either: that one
# is left out)
check "no failure to decrypt on any side" sh -c \
    "! grep 'cannot read it' '$tmp/sim.log' | grep -qv '$did' && ! grep -q '^dm-send-failed' '$tmp/alice.out'"

# A phone that lost its sessions (reinstalled): retry receipts, then
# wachat's resend on a fresh bundle decrypts, and Echo answers.
ctl phone-forget $E >/dev/null 2>&1
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $EJ after a reinstall" >&3
id3=$(queued_after "$tmp/alice.out" "$nq")
check "Echo's phone, without a session, answers $id3 with a retry receipt" \
    wait_grep "$tmp/sim.log" "phone $E: message $id3: retry receipt 1 sent"
check "... wachat's resend decrypts: delivered, and the echo comes back" \
    wait_grep "$tmp/alice.out" "^dm-message $EJ [0-9A-F]+ from_me=0 .*: echo: after a reinstall\$"
failed_now && { diag "$tmp/alice.out"; grep "phone $E" "$tmp/sim.log" | sed 's/^/# /'; }
check "the inbox shows the failure (retried) and the text read later" \
    wait_ctl "\"id\":\"$id3\",[^}]*\"retried\":true}.*\"id\":\"$id3\",[^}]*\"text\":\"after a reinstall\"" phone-inbox $E
failed_now && diag "$tmp/wc"

# Echo's phone is reinstalled with a new identity: wachat's message fails
# there, a second retry receipt makes wachat fetch the new bundle; the new
# identity key is accepted as WhatsApp does and the chat says so.
ctl phone-reinstall $E >/dev/null 2>&1
echo "send $EJ to a new phone" >&3
check "after the reinstall, a new identity: the chat notes that the security code changed" \
    wait_grep "$tmp/alice.out" "^dm-message $EJ [^ ]* from_me=0 state=received notice=1 note=identity quoted=-: "
failed_now && { diag "$tmp/alice.out"; grep "phone $E" "$tmp/sim.log" | tail -n 20 | sed 's/^/# /'; }
check "... and the message reaches the new phone: the echo comes back" \
    wait_grep "$tmp/alice.out" "^dm-message $EJ [0-9A-F]+ from_me=0 .*: echo: to a new phone\$"

# A chatty contact writes to its owner now and then, once the owner has a
# linked companion: carol (every 2 s) to alice; frank (every 1 s) is a
# contact of dave, who has none, and sends nothing.
C=15550000004
CJ=$C@s.whatsapp.net
check "ctl contact --chatty sets the period; none without an owner" sh -c \
    "'$SIM' ctl --admin '$ADMIN' account 15550000005 100000000000005 dave >/dev/null &&
     '$SIM' ctl --admin '$ADMIN' contact 15550000006 100000000000006 frank 15550000005 --chatty 1 >/dev/null &&
     ! '$SIM' ctl --admin '$ADMIN' contact 15550000007 100000000000007 gus --chatty 1 >/dev/null 2>&1 &&
     '$SIM' ctl --admin '$ADMIN' contact $C 100000000000004 carol $A --chatty 2 >/dev/null &&
     '$SIM' ctl --admin '$ADMIN' phone-inbox $C | grep -q '\"chatty_s\":2'"
check "carol's phone writes to alice (every 2 s)" \
    wait_grep "$tmp/alice.out" "^dm-message $CJ [0-9A-F]+ from_me=0 .*: .+\$"
# two_texts: carol's phone wrote alice two different texts.
two_texts() {
	[ "$(grep -E "^dm-message $CJ [0-9A-F]+ from_me=0 " "$tmp/alice.out" |
	    sed 's/^.*: //' | sort -u | wc -l)" -ge 2 ]
}
check "... and again, with another text" wait_for two_texts
failed_now && { diag "$tmp/alice.out"; grep "phone $C" "$tmp/sim.log" | sed 's/^/# /'; }
inbox $C >"$tmp/carol.json"
check "... only to alice" sh -c \
    "[ \"\$(grep -o '\"to\":\"[^\"]*\"' '$tmp/carol.json' | sort -u)\" = '\"to\":\"$AJ\"' ]"
check "frank, whose account has no linked companion, sent nothing" sh -c \
    "ctl_out=\$('$SIM' ctl --admin '$ADMIN' phone-inbox 15550000006) &&
     echo \"\$ctl_out\" | grep -q '\"sent\":\[\]'"
failed_now && { diag "$tmp/carol.json"; ctl phone-inbox 15550000006 | sed 's/^/# /'; }

echo quit >&3
wait_pid "$alice_pid"
exec 3>&-
sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null; then
	not_ok "no sanitizer report"
	for f in "$tmp"/*.err; do diag "$f"; done
else
	ok "no sanitizer report"
fi
finish_tap
