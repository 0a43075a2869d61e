#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: app state sync recovers from what can go wrong, each time
# logged and ending with wachat's chats as the phone has them (names,
# mute).  wachat in a detached 100x30 tmux pane against wachat-sim, linked
# to an account with three contacts and a small history; then the sim's
# faults: a patch stored with a bad patch MAC (wachat resets the
# collection and takes a snapshot), a patch made with a key the phone has
# not shared yet (wachat parks the collection, asks the phone for the key
# and goes on when it comes), and a bad snapshot MAC after a bad patch
# (a second snapshot, good).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
P=@s.whatsapp.net

need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact 15550000002 100000000000002 "Echo" $A >/dev/null 2>&1
ctl contact 15550000003 100000000000003 "Alice" $A >/dev/null 2>&1
ctl contact 15550000004 100000000000004 "Bob" $A >/dev/null 2>&1
ctl history-set $A 6 60 1 >/dev/null 2>&1

# agrees: wachat's chats say what the phone's app state says (the
# differences in $tmp/diff).
agrees() {
	"$W" chats --json --data-dir "$tmp/data" >"$tmp/chats" 2>/dev/null &&
	    "$W" chats --archived --json --data-dir "$tmp/data" >>"$tmp/chats" \
	    2>/dev/null &&
	    ctl appstate $A >"$tmp/state" 2>&1 &&
	    python3 "${top_srcdir:-.}/tests/appsync18-compare.py" "$tmp/chats" \
	    "$tmp/state" "$(($(date +%s) * 1000))" 3 >"$tmp/diff"
}
# named JID NAME: wachat calls JID's chat NAME, and agrees with the phone.
named() {
	agrees && python3 -c '
import json, sys
c = {x["jid"]: x for x in map(json.loads, open(sys.argv[1])) if x.get("type") == "chat"}
sys.exit(0 if sys.argv[2] in c and c[sys.argv[2]]["name"] == sys.argv[3] else 1)' \
	    "$tmp/chats" "$1" "$2"
}
# logged REGEX: wachat's log says it.
logged() {
	grep -Eq -- "$1" "$LOG"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
# Each contact writes: their chats are in the list.
for c in 15550000002 15550000003 15550000004; do
	ctl phone-send $c $A$P "Hello from $c" >/dev/null 2>&1
done
three() {
	agrees && [ "$(grep -c '"jid":"1555000000[234]@' "$tmp/chats")" = 3 ]
}
check "linked: wachat's chats are the phone's, the three contacts' among them" \
    wait_for three
failed_now && { diag "$tmp/diff"; show; }

# 1. A bad patch MAC.
ctl appstate-fault $A patch-mac >/dev/null 2>&1
ctl appstate-contact $A 15550000002$P "Echo First Rename" >/dev/null 2>&1
check "a patch with a bad patch MAC: wachat says so in its log" \
    wait_for logged 'critical_unblock_low: the patch MAC does not verify'
check "... resets the collection and fetches a snapshot" \
    wait_for logged 'critical_unblock_low: reset, fetching a snapshot'
check "... and ends as the phone: Echo is 'Echo First Rename'" \
    wait_for named 15550000002$P "Echo First Rename"
failed_now && { diag "$tmp/diff"; show; }

# 2. A key the phone has not shared.
ctl appstate-fault $A new-key >/dev/null 2>&1
ctl appstate-contact $A 15550000003$P "Alice New Key" >/dev/null 2>&1
check "a patch made with a key wachat lacks: parked, the key asked of the phone" \
    wait_for logged 'critical_unblock_low: a key is missing: asked our phone'
asked() {
	ctl appstate $A >"$tmp/st" 2>&1 &&
	    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["key_requests"] >= 1 and any(k["withheld"] is False and k["asked"] for k in d["keys"]) else 1)' "$tmp/st"
}
check "... the phone got the key request and shares the key" wait_for asked
failed_now && diag "$tmp/st"
check "... the share resumes the collection: Alice is 'Alice New Key'" \
    wait_for named 15550000003$P "Alice New Key"
failed_now && { diag "$tmp/diff"; show; }
check "... and no collection was reset for it" \
    test "$(grep -c 'reset, fetching a snapshot' "$LOG")" = 1

# 3. A bad snapshot MAC (the snapshot that follows a bad patch).
ctl appstate-fault $A snapshot-mac >/dev/null 2>&1
ctl appstate-fault $A patch-mac >/dev/null 2>&1
ctl appstate-contact $A 15550000004$P "Bob Bad Snapshot" >/dev/null 2>&1
check "a bad patch, then a snapshot with a bad MAC: wachat says so in its log" \
    wait_for logged 'critical_unblock_low: the LTHash does not give the snapshot MAC'
check "... takes a second snapshot, and ends as the phone: Bob is 'Bob Bad Snapshot'" \
    wait_for named 15550000004$P "Bob Bad Snapshot"
failed_now && { diag "$tmp/diff"; show; }
check "... after two resets of the collection on this connection (not given up)" \
    sh -c "! grep -q 'given up' '$LOG'"
check "the screen's chat list shows the names" wait_pane 'Bob Bad Snapshot'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
