#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# History sync in wachat-sim (protocol.md 12, 14.1-14.2): the generated
# phone history and its admin and ctl commands, their refusals and the
# HTTPS media host through `wachat-sim ctl` and curl; then
# tests/sim-interop/baileys-history.mjs: Baileys, linked through the mock
# phone and trusting the test certificate (NODE_EXTRA_CA_CERTS), must
# receive every chat and message the phone holds, with exact texts, and
# receipt every notification; on demand, faulty blobs, and 50,000
# messages in 500 chats.  TAP.  Needs openssl and curl.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

need openssl curl "${NODE:-node}"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" \
    --history-chats 12 --history-messages 400 --history-seed 9 \
    --history-chunk 100; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
MPORT=$(sed -n 's/^media-port=//p' "$tmp/sim.out")
check "wachat-sim prints its media port ($MPORT)" test -n "$MPORT"

# json FILE EXPR: evaluate a JavaScript expression over the JSON in FILE
# (as d); prints the value.
json() {
	"${NODE:-node}" -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(eval(process.argv[2]))' "$1" "$2"
}

ctl account 15550000001 "" alice >"$tmp/acct" 2>&1
ctl history 15550000001 >"$tmp/h1" 2>&1
check "--history-chats gives an account made afterwards its history (12 chats, 400 messages)" \
    test "$(json "$tmp/h1" 'd.chats + "/" + d.messages + "/" + d.chat_list.length + "/" + d.chat_list.reduce((a, c) => a + c.messages, 0)')" = "12/400/12/400" || diag "$tmp/h1"
check "the chat list is newest first, groups among them" \
    test "$(json "$tmp/h1" 'd.chat_list.every((c, i, v) => i === 0 || c.newest.ts < v[i - 1].newest.ts) && d.chat_list.filter((c) => c.group).length')" = 2
J=$(json "$tmp/h1" 'd.chat_list[0].jid')
ctl history-chat 15550000001 "$J" >"$tmp/c1" 2>&1
check "history-chat lists a chat's messages oldest first with id, from_me, sender, ts, text" \
    test "$(json "$tmp/c1" 'd.count === d.messages.length && d.messages.every((m, i, v) => m.id.length === 22 && typeof m.from_me === "boolean" && /@s\.whatsapp\.net$/.test(m.sender) && m.text.length > 0 && (i === 0 || m.ts > v[i - 1].ts))')" = true || diag "$tmp/c1"
ctl history-chat 15550000001 "$J" 2 3 >"$tmp/c2" 2>&1
check "offset and limit page it" \
    test "$(json "$tmp/c2" 'd.messages.length')" = 3

# The same seed makes the same history (a second sim).
ctl history-set 15550000001 5 50 >"$tmp/dup" 2>&1
check "a second history for the same account is refused (exit 1, 409)" \
    grep -q 'has a history already' "$tmp/dup"
ctl contact 15550000003 "" carol >/dev/null 2>&1
ctl history-set 15550000003 5 50 >"$tmp/ct" 2>&1
check "a contact gets no history (400)" grep -q 'only an account' "$tmp/ct"
ctl account 15550000002 "" bob >/dev/null 2>&1
ctl history-send 15550000002 >"$tmp/ns" 2>&1
check "history-send without a linked companion is refused (409)" \
    grep -q 'no linked companion' "$tmp/ns"
ctl history-fault 15550000002 melt >"$tmp/bf" 2>&1
check "history-fault with an unknown kind is refused (400)" \
    grep -q 'kind: corrupt, bomb, nest or gone' "$tmp/bf"
ctl history-chat 15550000002 1@s.whatsapp.net >"$tmp/nc" 2>&1
check "history-chat for a chat not in the history: 404" grep -q 'no such chat' "$tmp/nc"
ctl history 15550000003 >"$tmp/nh" 2>&1
check "history for an account without one: 404" grep -q 'has no history' "$tmp/nh"

code=$(curl -s -m 60 -o /dev/null -w '%{http_code}' --cacert "$tmp/cert.pem" \
    "https://127.0.0.1:$MPORT/v/t62.7119-24/1_2_3_n.enc?ccb=11-4&hash=AAAA")
check "the media host answers HTTPS with the test certificate: 404 for an unknown path ($code)" \
    test "$code" = 404
curl -s -o /dev/null --max-time 60 "https://127.0.0.1:$MPORT/x" 2>/dev/null
check "without the CA the certificate is refused (curl exit 60)" test $? -eq 60
ctl history-status >"$tmp/hs" 2>&1
check "history-status counts the 404" \
    test "$(json "$tmp/hs" 'd.not_found + "/" + d.media_tls + "/" + d.media_port')" = "1/true/$MPORT"
ctl history-media-delay 250 >"$tmp/md" 2>&1
check "history-media-delay sets the media host's delay" \
    test "$(json "$tmp/md" 'd.media_delay_ms')" = 250
ctl history-media-delay 70000 >"$tmp/md2" 2>&1
check "... within 0-60000 ms" grep -q 'delay_ms: 0-60000' "$tmp/md2"
ctl status >"$tmp/st" 2>&1
check "status carries the history counters" grep -q '"history":{"media_port":' "$tmp/st"
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0

# seed_listed RUN: the sim lists alice's history, one line a chat, in
# $tmp/seedRUN.
seed_listed() {
	ctl history 15550000001 >"$tmp/hist$1" 2>&1 &&
	    "${NODE:-node}" -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(d.chat_list.map(c=>c.jid+" "+c.name+" "+c.messages+" "+c.newest.id+" "+c.newest.ts+" "+c.newest.text).join("\n"))' \
	    "$tmp/hist$1" >"$tmp/seed$1" 2>/dev/null &&
	    [ -s "$tmp/seed$1" ]
}

# Two sims with the same seed hold the same texts.
for run in 1 2; do
	sim_start --history-chats 7 --history-messages 90 --history-seed 77 ||
	    { echo "Bail out! wachat-sim did not start"; exit 1; }
	ctl account 15550000001 "" alice >"$tmp/acct$run" 2>&1
	# (a sim under load may answer slowly: asked again until it lists)
	wait_for seed_listed "$run"
	sim_stop
done
check "the same seed makes the same history" cmp -s "$tmp/seed1" "$tmp/seed2" ||
    { diff "$tmp/seed1" "$tmp/seed2" | head -n 20 | sed 's/^/# /'; diag "$tmp/acct1"; diag "$tmp/acct2"; }

reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
check "no sanitizer report" test -z "$reports" || for f in $reports; do diag "$f"; done

# The Baileys part, numbered on from here.
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS
sim_node_tap baileys-history.mjs
finish_tap
