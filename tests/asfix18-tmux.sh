#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18's gaps: (1) reading a chat marked unread clears the mark on
# every device: the phone marks Echo unread (the list's ●); opening Echo
# and showing it for the read dwell queues markChatAsRead read=true of
# wachat's device, the sim holds it, the mark goes once it was taken.
# (2) a star made on the phone shows in the open chat: with Echo open,
# the phone stars Echo's message (the sim's /admin/appstate/star) and
# "(starred)" appears without reopening.  wachat in a detached 100x30
# tmux pane against wachat-sim.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
AJ=$A@s.whatsapp.net
E=15550000002
EJ=$E@s.whatsapp.net
AL=15550000003

need openssl python3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"

ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact $E 100000000000002 "Echo" $A >/dev/null 2>&1
ctl contact $AL 100000000000003 "Alice" $A >/dev/null 2>&1

st() {
	ctl appstate $A >"$tmp/state" 2>&1
}
# by_wachat: Echo's markChatAsRead is read=true and by wachat's device.
by_wachat() {
	st && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
c = [c for c in s["collections"] if c["name"] == "regular_low"][0]
r = [r for r in c["actions"] if json.loads(r["index"]) == ["markChatAsRead", sys.argv[2]]]
sys.exit(0 if r and r[0]["by"].startswith("device") and r[0]["action"]["flag"] else 1)' "$tmp/state" "$EJ"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
keys_in() {
	st && python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["key_shares"] > 0 else 1)' "$tmp/state"
}
check "the phone shared its app-state key with wachat" wait_for keys_in
ctl phone-send $AL $AJ "from Alice" >/dev/null 2>&1
eid=$(sent $E "hello from Echo" "$tmp/send.json")
check "Echo's message is listed (id ${eid:-none})" wait_pane 'hello from Echo'
failed_now && show
tm send-keys -t wachat Tab
check "Tab opens Echo" wait_pane '│ Echo Okafor *$'
check "... it is read there (a read receipt to Echo's phone)" \
    wait_for receipt $E "$eid" read
pick_chat Alice
check "... the picker opens Alice" wait_pane '│ Alice[A-Za-z ]* *$'
failed_now && show
synced() {
	grep -q 'app state regular_low: ' "$LOG" &&
	    grep -q 'app state regular_high: ' "$LOG"
}
wait_for synced >/dev/null

# (1) The phone marks Echo unread; opening it clears the mark everywhere.
ctl appstate-read $A "$EJ" off >/dev/null 2>&1
check "the phone marks Echo unread: the list shows ●" \
    wait_pane 'hello from Echo *●'
failed_now && show
check "... nothing marks it read while Alice is open" eval "! by_wachat"
pick_chat Echo
check "the picker opens Echo again" wait_pane '│ Echo Okafor *$'
failed_now && show
check "... read there: markChatAsRead read=true by wachat's device in regular_low" \
    wait_for by_wachat
failed_now && { diag "$tmp/state"; show; }
unmarked() {
	capture
	grep -q 'hello from Echo' "$tmp/pane" &&
	    ! grep -q 'hello from Echo *●' "$tmp/pane"
}
check "... the list's ● goes" wait_for unmarked
failed_now && show

# (2) With Echo open, the phone stars its message: shown without
# reopening.
check "Echo's message shows no star yet" pane_lacks '\(starred\)'
ctl appstate-star $A "$EJ" "$eid" >"$tmp/star.json" 2>&1
phone_star() {
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
c = [c for c in s["collections"] if c["name"] == "regular_high"][0]
r = [r for r in c["actions"] if json.loads(r["index"]) == ["star", sys.argv[2], sys.argv[3], "0", "0"]]
sys.exit(0 if r and r[0]["by"] == "phone" and r[0]["action"]["flag"] else 1)' "$tmp/star.json" "$EJ" "$eid"
}
check "the phone stars Echo's message (the sim holds it, by the phone)" \
    phone_star
failed_now && diag "$tmp/star.json"
check "... the open chat shows it (starred)" \
    wait_pane '│ Echo Okafor [0-9:]* \(starred\)'
failed_now && show
check "... Echo is still the open chat" pane_has '│ Echo Okafor *$'
tm send-keys -t wachat C-q
st_=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st_" = 0 ]
tm kill-server >/dev/null 2>&1
finish_sim_tmux
