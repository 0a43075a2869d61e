#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Privacy tokens (protocol.md 15.6, issue 16) against a strict wachat-sim
# (tests/sim/tokens.c): contacts marked as requiring a token get no 1:1
# message without one (ack error 463).  wachat's engine
# (tests/wa-eng-driver --messaging, real store) as alice's companion:
#  (a) bob's token comes in a privacy_token notification: alice's message
#      to bob carries it and is delivered (bob's phone reads it);
#  (b) no token and no nctSalt: carol's 463 makes wachat issue its token,
#      store the answer's and send the message once more: delivered,
#      exactly one resend on the wire;
#  (d) dave refuses even with a token: the message fails with words
#      about the privacy token, stays stored (a retry finds it failed),
#      and is sent exactly twice, no loop;
#  (e) alice's own token to bob is issued once in the 7-day bucket, not
#      at every send;
#  (c) erin, another account with a phone history (nctSalt in it, the
#      contacts' LIDs): her message to a history contact that requires a
#      token carries a cstoken and is delivered; one to the other history
#      contact, whose token to erin the history carries (tcToken), goes
#      with that token.
# TAP.  Every wait is bounded; everything is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
# a driver that has gone (its deadline) must not end the script with
# SIGPIPE before its cleanup: a write to its pipe just fails
trap '' PIPE
DRV="$b/tests/wa-eng-driver"
A=15550000001
B=15550000002
C=15550000003
D=15550000004
E=15550000021
H=15557000001
H2=15557000002
BJ=$B@s.whatsapp.net
CJ=$C@s.whatsapp.net
DJ=$D@s.whatsapp.net
HJ=$H@s.whatsapp.net
H2J=$H2@s.whatsapp.net

seen_failed=0
failed_now() {
	[ "$failed" -gt "$seen_failed" ] || return 1
	seen_failed=$failed
}

# adm ROUTE JSON: POST to /admin/ROUTE; tokens: GET /admin/tokens.
adm() {
	curl -sf -X POST -d "$2" "$ADMIN/admin/$1"
}
tokens() {
	curl -sf "$ADMIN/admin/tokens" >"$tmp/tok.json" 2>/dev/null
}
# tok_has REGEX: /admin/tokens matches REGEX (the last in $tmp/tok.json).
tok_has() {
	tokens && grep -Eq -- "$1" "$tmp/tok.json"
}
# msg_lines ID WHAT: how many sim log lines say message ID WHAT.
msg_lines() {
	grep -c "message $1 .*$2" "$tmp/sim.log"
}
lines_are() {
	[ "$(msg_lines "$1" "$2")" -eq "$3" ]
}
# issued FROM TO: the sim's count of FROM's issuings to TO.
issued() {
	tokens && sed -n "s/.*{\"from\":\"$1\",\"to\":\"$2\",\"count\":\([0-9]*\).*/\1/p" \
	    "$tmp/tok.json"
}
issued_is() {
	[ "$(issued "$1" "$2")" = "$3" ]
}

# start NAME PN: NAME's engine linked as PN's companion, commands on fd 3
# (alice) or 4 (erin).
start() {
	rm -f "$tmp/$1.in"
	mkfifo "$tmp/$1.in"
	"$DRV" --url "$URL" --root "$ROOT_PUB" --store "$tmp/$1.d" \
	    --ca-file "$tmp/cert.pem" \
	    --qr-file "$tmp/$1.qr" --messaging --commands \
	    --deadline-ms 90000 <"$tmp/$1.in" >"$tmp/$1.out" \
	    2>"$tmp/$1.err" &
	bg_pids="$bg_pids $!"
}

need mkfifo curl openssl
# the media host (history sync) over HTTPS, as wachat downloads
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL=$(echo "$URL" | sed 's/^ws:/wss:/')
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000002 bob $A >/dev/null 2>&1
ctl contact $C 100000000000003 carol $A >/dev/null 2>&1
ctl contact $D 100000000000004 dave $A >/dev/null 2>&1
check "the sim marks bob and carol as requiring a token, dave as refusing" sh -c \
    "curl -sf -X POST -d '{\"pn\":\"$B\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"token\"' &&
     curl -sf -X POST -d '{\"pn\":\"$C\",\"mode\":\"token\"}' '$ADMIN/admin/tokens/require' >/dev/null &&
     curl -sf -X POST -d '{\"pn\":\"$D\",\"mode\":\"refuse\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"refuse\"'"

start alice
exec 3>"$tmp/alice.in"
wait_grep "$tmp/alice.qr" 'https://' &&
    ctl scan-qr "$(cat "$tmp/alice.qr")" $A >/dev/null 2>&1
check "alice's engine links and logs in" wait_grep "$tmp/alice.out" '^connected '
wait_grep "$tmp/alice.out" '^prekeys-uploaded '

# (a) bob's token in a privacy_token notification.
adm tokens/notify "{\"pn\":\"$B\",\"to\":\"$A\"}" >"$tmp/notify.json"
check "the sim queued bob's privacy_token notification for alice's companion" \
    grep -q '"queued":1' "$tmp/notify.json"
check "... and alice's engine acked it" wait_ctl \
    '"kind":"notification","id":"sim-tok-[0-9]+","type":"privacy_token",[^}]*"acked":true' messages
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $BJ hello bob" >&3
id=$(queued_after "$tmp/alice.out" "$nq")
check "alice's message $id to bob (token required) is delivered" \
    wait_grep "$tmp/alice.out" "^dm-state $BJ $id delivered\$"
failed_now && { diag "$tmp/alice.out"; diag "$tmp/sim.log"; }
check "... bob's phone read it" \
    wait_ctl "\"id\":\"$id\",.*\"text\":\"hello bob\"" phone-inbox $B
check "... it carried bob's tctoken: accepted, never refused" \
    lines_are "$id" 'ack error 463' 0
check "... the sim counts an accepted tctoken" \
    tok_has '"nacks_463":0,.*"accepted_tctoken":1,'

# (e) alice's token to bob: issued after the first send, not again.
check "alice issued her own token to bob once, after the send" \
    wait_cmd "$WAIT" issued_is $A $B 1
for k in 2 3; do
	nq=$(grep -c '^queued ' "$tmp/alice.out")
	echo "send $BJ again $k" >&3
	id=$(queued_after "$tmp/alice.out" "$nq")
	check "message $k to bob ($id) delivered" \
	    wait_grep "$tmp/alice.out" "^dm-state $BJ $id delivered\$"
done
check "... and her token to bob still issued once in this bucket" \
    issued_is $A $B 1

# (b) carol: no token, no salt: 463, issue, resend once.
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $CJ hello carol" >&3
cid=$(queued_after "$tmp/alice.out" "$nq")
check "alice's message $cid to carol (no token held) is delivered" \
    wait_grep "$tmp/alice.out" "^dm-state $CJ $cid delivered\$"
failed_now && { diag "$tmp/alice.out"; diag "$tmp/sim.log"; }
check "... after exactly one 463" lines_are "$cid" 'ack error 463' 1
check "... and exactly one resend, routed" lines_are "$cid" 'devices routed' 1
check "... with the token the sim gave in the answer to alice's issuing" \
    tok_has "\"from\":\"$A\",\"to\":\"$C\",\"count\":1,"
check "carol's phone read it once" \
    wait_ctl "\"id\":\"$cid\",.*\"text\":\"hello carol\"" phone-inbox $C
check "... not as a duplicate" sh -c \
    "'$SIM' ctl --admin '$ADMIN' phone-inbox $C | grep -q '\"duplicates\":0'"

# (d) dave refuses even with a token.
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $DJ hello dave" >&3
did=$(queued_after "$tmp/alice.out" "$nq")
check "alice's message $did to dave fails with words about the privacy token" \
    wait_grep "$tmp/alice.out" "^dm-send-failed $DJ $did err=-?[0-9]+: .*privacy token.*463"
failed_now && { diag "$tmp/alice.out"; diag "$tmp/sim.log"; }
check "... after exactly two sends, both refused" lines_are "$did" 'ack error 463' 2
# one more message (to bob) goes and comes back: the outbox moved on,
# and dave's message was not sent a third time meanwhile
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $BJ after dave" >&3
id=$(queued_after "$tmp/alice.out" "$nq")
check "the next message (to bob, $id) is delivered" \
    wait_grep "$tmp/alice.out" "^dm-state $BJ $id delivered\$"
check "... and dave's was not sent again: no loop" lines_are "$did" 'ack error 463' 2
check "... nor routed to dave" lines_are "$did" 'devices routed' 0
echo "retry $DJ $did" >&3
check "dave's failed message is still stored (a retry finds it failed)" \
    wait_grep "$tmp/alice.out" '^retry 1$'
check "... and fails again the same way, once more only" \
    wait_cmd "$WAIT" lines_are "$did" 'ack error 463' 4
check "alice's engine still runs" running "$(echo $bg_pids | awk '{print $1}')"

# (c) erin: a phone history with the nctSalt: the cstoken.
ctl account $E 100000000000021 erin >/dev/null 2>&1
ctl history-set $E 2 4 7 >/dev/null 2>&1
check "the history contacts $H and $H2 require a token" sh -c \
    "curl -sf -X POST -d '{\"pn\":\"$H\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"token\"' &&
     curl -sf -X POST -d '{\"pn\":\"$H2\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"token\"'"
# H2's token to erin, before she links: only her phone's history has it
adm tokens/notify "{\"pn\":\"$H2\",\"to\":\"$E\"}" >"$tmp/notify2.json"
check "... $H2 gave erin a token while she had no companion" \
    grep -q '"queued":0' "$tmp/notify2.json"
start erin
exec 4>"$tmp/erin.in"
wait_grep "$tmp/erin.qr" 'https://' &&
    ctl scan-qr "$(cat "$tmp/erin.qr")" $E >/dev/null 2>&1
check "erin's engine links and imports her history" \
    wait_grep "$tmp/erin.out" '^history progress type=0 .*err=0'
failed_now && { diag "$tmp/erin.out"; grep -i 'hist\|blob' "$tmp/sim.log" >"$tmp/d0"; diag "$tmp/d0"; }
nq=$(grep -c '^queued ' "$tmp/erin.out")
echo "send $HJ hello history" >&4
hid=$(queued_after "$tmp/erin.out" "$nq")
check "erin's message $hid to $H is delivered" \
    wait_grep "$tmp/erin.out" "^dm-state $HJ $hid delivered\$"
failed_now && { diag "$tmp/erin.out"; diag "$tmp/sim.log"; }
check "... never refused" lines_are "$hid" 'ack error 463' 0
check "... on its cstoken (from the history's nctSalt)" \
    tok_has '"accepted_cstoken":1,'
failed_now && { grep "$hid\|privacy" "$tmp/sim.log" >"$tmp/d1"; diag "$tmp/d1";
    diag "$tmp/tok.json"; }
tokens
tc0=$(sed -n 's/.*"accepted_tctoken":\([0-9]*\),.*/\1/p' "$tmp/tok.json")
nq=$(grep -c '^queued ' "$tmp/erin.out")
echo "send $H2J hello again" >&4
h2id=$(queued_after "$tmp/erin.out" "$nq")
check "erin's message $h2id to $H2 is delivered" \
    wait_grep "$tmp/erin.out" "^dm-state $H2J $h2id delivered\$"
check "... never refused" lines_are "$h2id" 'ack error 463' 0
check "... on the tcToken her history carried (one more tctoken accepted)" \
    tok_has "\"accepted_tctoken\":$((tc0 + 1)),\"accepted_cstoken\":1,"
failed_now && diag "$tmp/tok.json"

echo quit >&3 2>/dev/null
echo quit >&4 2>/dev/null
exec 3>&- 4>&-
sim_stop
finish_tap
