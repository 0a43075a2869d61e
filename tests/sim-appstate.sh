#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# App state ("syncd", protocol-features.md 2) in wachat-sim: the phone's
# address book and the admin's actions through `wachat-sim ctl` (the
# patches it authors, versions, LTHash, decoded actions; refusals), then
# tests/sim-interop/baileys-appstate.mjs: Baileys companions with MAC
# verification on against the demo's account (key share, snapshots,
# chatModify, server_sync, the faults, the wire).  TAP.  Needs openssl,
# Node 20 and the packages of tests/interop (npm ci there): without them
# the test fails.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

need openssl "${NODE:-node}"
test_cert
sim_start || { echo "Bail out! wachat-sim did not start"; exit 1; }

# json FILE EXPR: a JavaScript expression over the JSON in FILE (as d).
json() {
	"${NODE:-node}" -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const c = (n) => d.collections.find((x) => x.name === n); console.log(eval(process.argv[2]))' "$1" "$2"
}

A=15550000001
ctl account $A "" alice >/dev/null 2>&1
ctl contact 15550000002 "" Bob $A >/dev/null 2>&1
ctl contact 15550000003 "" Carol $A >/dev/null 2>&1
ctl appstate $A >"$tmp/s1" 2>&1
check "the phone authors its address book in one patch: critical_unblock_low version 1, two contacts" \
    test "$(json "$tmp/s1" 'c("critical_unblock_low").version + "/" + c("critical_unblock_low").patches.length + "/" + c("critical_unblock_low").actions.filter((a) => a.action.kind === "contact").length')" = 1/1/2 || diag "$tmp/s1"
check "each with an address-book name that is not its push name" \
    test "$(json "$tmp/s1" 'c("critical_unblock_low").actions.map((a) => a.action.first_name + ":" + a.action.full_name + ":" + a.index).sort().join(" ")')" = 'Bob:Bob Okafor:["contact","15550000002@s.whatsapp.net"] Carol:Carol Tanaka:["contact","15550000003@s.whatsapp.net"]' || diag "$tmp/s1"
check "the LTHash is 128 bytes, not zero; one key, current, shared" \
    test "$(json "$tmp/s1" '/^[0-9a-f]{256}$/.test(c("critical_unblock_low").hash) && !/^0+$/.test(c("critical_unblock_low").hash) && d.keys.length === 1 && d.keys[0].current && !d.keys[0].withheld && d.keys[0].id.length === 12')" = true || diag "$tmp/s1"
ctl contact 15550000004 "" "" $A >/dev/null 2>&1
ctl appstate $A >"$tmp/s2" 2>&1
check "a contact made later is the next version; without a push name it is 'Contact NNNN'" \
    test "$(json "$tmp/s2" 'c("critical_unblock_low").version + "/" + c("critical_unblock_low").actions.find((a) => a.action.chat === "15550000004@s.whatsapp.net")?.action.full_name')" = "2/Contact 0004" || diag "$tmp/s2"
h1=$(json "$tmp/s1" 'c("critical_unblock_low").hash')
h2=$(json "$tmp/s2" 'c("critical_unblock_low").hash')
check "... and the hash moved" test "$h1" != "$h2"

ctl appstate-mute $A 15550000002@s.whatsapp.net always >"$tmp/m1" 2>&1
ctl appstate-mute $A 15550000003@s.whatsapp.net +3600 >"$tmp/m2" 2>&1
now=$(date +%s)
check "appstate-mute: regular_high versions 1 and 2, one muted forever (-1), one for an hour" \
    test "$(json "$tmp/m2" 'c("regular_high").version + "/" + c("regular_high").actions.map((a) => a.action.mute_end_ms === -1 ? "always" : Math.abs(a.action.mute_end_ms - '"$now"'000 - 3600000) < 60000 ? "hour" : a.action.mute_end_ms).sort().join(",")')" = "2/always,hour" || diag "$tmp/m2"
ctl appstate-mute $A 15550000002@s.whatsapp.net off >"$tmp/m3" 2>&1
check "unmuting sets the same index again: one record, not muted" \
    test "$(json "$tmp/m3" 'c("regular_high").version + "/" + c("regular_high").actions.filter((a) => a.action.chat === "15550000002@s.whatsapp.net").map((a) => a.action.flag).join()')" = "3/false" || diag "$tmp/m3"
ctl appstate-pin $A 15550000002@s.whatsapp.net >/dev/null 2>&1
ctl appstate-archive $A 15550000003@s.whatsapp.net on >/dev/null 2>&1
ctl appstate-read $A 15550000003@s.whatsapp.net off >"$tmp/m4" 2>&1
check "pin, archive and mark-unread are regular_low versions 1-3, decoded" \
    test "$(json "$tmp/m4" 'c("regular_low").version + "/" + c("regular_low").actions.map((a) => a.action.kind + "=" + a.action.flag).sort().join(",")')" = "3/archive=true,mark_read=false,pin=true" || diag "$tmp/m4"
ctl appstate-contact $A 15550000002@s.whatsapp.net "Robert Schneider" >"$tmp/m5" 2>&1
check "appstate-contact renames a contact: full and first name" \
    test "$(json "$tmp/m5" 'c("critical_unblock_low").actions.filter((a) => a.action.chat === "15550000002@s.whatsapp.net").map((a) => a.action.full_name + "/" + a.action.first_name).join()')" = "Robert Schneider/Robert" || diag "$tmp/m5"

ctl appstate-mute $A 15550000002@s.whatsapp.net soon >"$tmp/e1" 2>&1
check "a bad mute value is refused (400)" grep -q 'value: always, off' "$tmp/e1"
ctl appstate-pin $A 15550000002@s.whatsapp.net maybe >"$tmp/e2" 2>&1
check "a bad pin value is refused (400)" grep -q 'value: on or off' "$tmp/e2"
ctl appstate-pin $A nobody >"$tmp/e3" 2>&1
check "a chat that is no JID is refused" grep -q 'give chat' "$tmp/e3"
ctl appstate-fault $A melt >"$tmp/e4" 2>&1
check "an unknown fault is refused" grep -q 'kind: patch-mac, snapshot-mac, new-key' "$tmp/e4"
ctl appstate 15550000002 >"$tmp/e5" 2>&1
check "a contact has no app state of its own (404)" grep -q 'no such account' "$tmp/e5"
ctl appstate-settings 0 >"$tmp/e6" 2>&1
check "appstate-settings refuses a page of 0" grep -q 'page: 1-10000' "$tmp/e6"
ctl appstate-settings 7 1000 >"$tmp/e7" 2>&1
check "appstate-settings sets the page and the inline size" \
    test "$("${NODE:-node}" -p 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); d.page + "/" + d.inline_max' "$tmp/e7")" = 7/1000 || diag "$tmp/e7"
ctl appstate-fault $A new-key >"$tmp/f1" 2>&1
check "the new-key fault adds a withheld key, now the current one" \
    test "$(json "$tmp/f1" 'd.keys.length + "/" + d.keys[1].withheld + "/" + d.keys[1].current')" = "2/true/true" || diag "$tmp/f1"
ctl appstate-fault $A patch-mac >/dev/null 2>&1
ctl appstate-pin $A 15550000004@s.whatsapp.net on >"$tmp/f2" 2>&1
check "the patch-mac fault spoils the next patch only, authored with the new key" \
    test "$(json "$tmp/f2" 'c("regular_low").patches.map((p) => p.bad_mac).join() + "/" + c("regular_low").actions.find((a) => a.action.chat === "15550000004@s.whatsapp.net").key_id + "/" + d.keys[1].id')" = "false,false,false,true/$(json "$tmp/f1" 'd.keys[1].id')/$(json "$tmp/f1" 'd.keys[1].id')" || diag "$tmp/f2"
ctl status >"$tmp/st" 2>&1
check "status carries the app-state block" grep -q '"appstate":{"page":7,' "$tmp/st"
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
check "no sanitizer report" test -z "$reports" || for f in $reports; do diag "$f"; done

# The Baileys part, numbered on from here.
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS
sim_node_tap baileys-appstate.mjs
finish_tap
