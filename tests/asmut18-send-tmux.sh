#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the send side: the user's own app-state changes made in
# wachat reach the server (protocol-features.md 2.7).  wachat in a
# detached 100x30 tmux pane against wachat-sim; Echo, Alice and Bob each
# sent us a message (Echo last, so first in the list).  Tab opens Echo:
# Alt-n 3 mutes it for good: the sim's app state holds that mute,
# authored by wachat's device, as regular_high's next version, and the
# list shows Echo muted (the mark, and `wachat chats --json`); Alt-t pins
# it (regular_low pin_v1), Alt-u marks it unread (markChatAsRead false,
# the list's mark; the open chat closes), opening it again reads it
# (markChatAsRead true, the mark goes), Up Alt-* stars its message (regular_high star, the
# "(starred)" mark), Alt-a archives it (it leaves the main list, Alt-z's
# Archived folder shows it).  A forced 409 (the sim's conflict fault: the
# phone moves the version first): Alice's 8-hour mute still lands, once,
# on top of the phone's patch, and shows.  Alt-k asks before clearing
# Alice's messages (n: nothing happens; y: clearChat, her message gone),
# Alt-x before deleting her chat (y: deleteChat, she leaves the list).  Offline (wachat started
# against a closed port): Bob's pin is kept in the outbox, the note says
# so, across a restart; connected again it goes, and shows.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
AJ=$A@s.whatsapp.net
E=15550000002
AL=15550000003
BO=15550000004
S="${top_srcdir:-.}/tests/asmut18-state.py"

need openssl python3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
GOOD_URL=$URL

ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact $E 100000000000002 "Echo" $A >/dev/null 2>&1
ctl contact $AL 100000000000003 "Alice" $A >/dev/null 2>&1
ctl contact $BO 100000000000004 "Bob" $A >/dev/null 2>&1

# st: the sim's app state of A into $tmp/state.
st() {
	ctl appstate $A >"$tmp/state" 2>&1
}
# has COLL INDEX KIND FLAG [MIN]: the sim holds that action of ours.
has() {
	st && python3 "$S" "$tmp/state" action "$@" >"$tmp/why"
}
ver() {
	st && python3 "$S" "$tmp/state" version "$1"
}
# chat_is JID KEY VALUE [OPTION]: `wachat chats --json [OPTION]` says
# JID's KEY is VALUE.
chat_is() {
	"$W" chats --json $4 --data-dir "$tmp/data" >"$tmp/chats" \
	    2>/dev/null &&
	    grep "\"jid\":\"$1\"" "$tmp/chats" | grep -q "\"$2\":$3"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
keys_in() {
	st && python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["key_shares"] > 0 else 1)' "$tmp/state"
}
check "the phone shared its app-state key with wachat" wait_for keys_in
ctl phone-send $BO $AJ "from Bob" >/dev/null 2>&1
ctl phone-send $AL $AJ "from Alice" >/dev/null 2>&1
ctl phone-send $E $AJ "hello from Echo" >/dev/null 2>&1
check "the three chats are listed" wait_pane 'hello from Echo'
failed_now && show
synced() {
	grep -q 'app state regular_low: ' "$LOG" &&
	    grep -q 'app state regular_high: ' "$LOG"
}
wait_for synced >/dev/null

# Mute Echo for good.
v0=$(ver regular_high)
tm send-keys -t wachat Tab
check "Tab opens Echo" wait_pane 'Echo.*│'
tm send-keys -t wachat M-n
check "Alt-n asks how long to mute Echo" wait_pane 'Mute Echo.*: 1 for 8 hours, 2 for a week, 3 always, 0 unmutes'
failed_now && show
tm send-keys -t wachat 3
check "3: the sim holds Echo's mute by wachat's device, muted for good, as regular_high's next version" \
    wait_for has regular_high "[\"mute\",\"$E@s.whatsapp.net\"]" mute true $((v0 + 1))
failed_now && { diag "$tmp/why"; show; }
check "... with no end (-1)" test "$(python3 "$S" "$tmp/state" mute-end regular_high "[\"mute\",\"$E@s.whatsapp.net\"]")" = -1
check "... the chat list shows Echo muted" wait_pane '🔇 Echo'
failed_now && show
check "... and wachat chats --json says so" chat_is "$E@s.whatsapp.net" muted true
failed_now && diag "$tmp/chats"
check "... wachat committed it as the server's version (no fetch of its own patch)" \
    grep -q "app state regular_high: own change [0-9]* taken as version $((v0 + 1))" "$LOG"

# Pin it.
vl=$(ver regular_low)
tm send-keys -t wachat M-t
check "Alt-t pins Echo: pin_v1 in regular_low's next version" \
    wait_for has regular_low "[\"pin_v1\",\"$E@s.whatsapp.net\"]" pin true $((vl + 1))
failed_now && { diag "$tmp/why"; show; }
check "... the list shows the pin" wait_pane '📌🔇 Echo'
failed_now && show
check "... chats --json: pinned" chat_is "$E@s.whatsapp.net" pinned true

# Mark it unread, once it is read (no count on its row: until then Alt-u
# marks it read, as it still has an unread message).
check "Echo's message is read (no count on its row)" \
    wait_pane 'hello from Echo +│'
failed_now && show
tm send-keys -t wachat M-u
check "Alt-u marks Echo unread: markChatAsRead read=false" \
    wait_for has regular_low "[\"markChatAsRead\",\"$E@s.whatsapp.net\"]" mark_read false $((vl + 2))
failed_now && { diag "$tmp/why"; show; }
check "... the list marks it unread (●)" wait_pane 'hello from Echo *●'
failed_now && show
check "... and the open chat closes (as WhatsApp Web leaves it), so the mark stays" \
    wait_pane 'No chat open'
failed_now && show
# Opening it again reads it: the mark goes on every device.
tm send-keys -t wachat C-n
wait_pane 'Open a chat' >/dev/null
tm send-keys -t wachat -l "Echo"
tm send-keys -t wachat Enter
check "... opening Echo again: markChatAsRead read=true, the next version" \
    wait_for has regular_low "[\"markChatAsRead\",\"$E@s.whatsapp.net\"]" mark_read true $((vl + 3))
failed_now && { diag "$tmp/why"; show; }
check "... and the mark is gone from the list" wait_gone 'hello from Echo *●'
failed_now && show

# Star its message.
tm send-keys -t wachat Up
tm send-keys -t wachat M-*
star_ok() {
	st && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
c = [c for c in s["collections"] if c["name"] == "regular_high"][0]
r = [r for r in c["actions"] if json.loads(r["index"])[:2] == ["star", sys.argv[2]]]
sys.exit(0 if r and r[0]["by"].startswith("device") and r[0]["action"]["flag"] and
    json.loads(r[0]["index"])[3:] == ["0", "0"] else 1)' "$tmp/state" "$E@s.whatsapp.net"
}
check "Up, Alt-* stars Echo's message: a star in regular_high, its index the chat, the message, not ours (0), no participant (0)" \
    wait_for star_ok
failed_now && { diag "$tmp/state"; show; }
check "... the message shows (starred)" wait_pane 'Echo.*(starred)'
failed_now && show
tm send-keys -t wachat Escape

# Archive it: it leaves the main list for the Archived folder.
tm send-keys -t wachat M-a
check "Alt-a archives Echo: archive in regular_low" \
    wait_for has regular_low "[\"archive\",\"$E@s.whatsapp.net\"]" archive true $((vl + 4))
failed_now && { diag "$tmp/why"; show; }
check "... Echo leaves the main list (an Archived row instead)" \
    wait_pane 'Archived'
echo_gone() {
	capture
	! grep -q '│.*Echo.*│\|^ *🔇 Echo\|📌🔇 Echo' "$tmp/pane"
}
check "... Echo's row is gone from the list" wait_for echo_gone
failed_now && show
tm send-keys -t wachat M-z
check "... Alt-z shows it in the Archived folder" wait_pane '📌🔇 Echo'
failed_now && show
tm send-keys -t wachat M-z
check "... chats --json: archived" chat_is "$E@s.whatsapp.net" archived true --archived

# A forced 409: the phone moves regular_high first; Alice's mute is built
# again on the newer state and lands once.
count() {
	st && python3 "$S" "$tmp/state" count regular_high "$1"
}
conflicts() {
	st && python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["conflicts"])' "$tmp/state"
}
c0=$(conflicts)
d0=$(count device)
p0=$(count phone)
ctl appstate-fault $A conflict >/dev/null 2>&1
pick_chat Alice
check "the picker opens Alice" wait_pane 'Alice Tanaka *$'
failed_now && show
tm send-keys -t wachat M-n
wait_pane 'Mute Alice' >/dev/null
tm send-keys -t wachat 1
check "with a conflict forced, Alt-n 1 still mutes Alice (8 hours) in the sim" \
    wait_for has regular_high "[\"mute\",\"$AL@s.whatsapp.net\"]" mute true
failed_now && { diag "$tmp/why"; show; }
check "... after one 409: the sim answered one conflict" test "$(conflicts)" = $((c0 + 1))
check "... the phone's patch came first, ours on top: one patch each, ours once" \
    test "$(count phone)/$(count device)" = "$((p0 + 1))/$((d0 + 1))"
check "... wachat took the winning patch and built its own again" \
    grep -q 'app state regular_high: own change [0-9]*: 409, built again' "$LOG"
failed_now && { grep -a 'app state\|appsync' "$LOG" | tail -40 | sed 's/^/# /'; }
end=$(python3 "$S" "$tmp/state" mute-end regular_high "[\"mute\",\"$AL@s.whatsapp.net\"]")
now=$(($(date +%s) * 1000))
check "... muted until about 8 hours from now" \
    test "$end" -gt $((now + 28700000)) -a "$end" -le $((now + 28800000))
check "... and the list shows Alice muted" wait_pane '🔇 Alice'
failed_now && show

# Clear and delete ask first.
tm send-keys -t wachat M-k
check "Alt-k asks before clearing Alice's messages" \
    wait_pane 'Clear the chat Alice.* everywhere\? y clears it, n keeps it'
failed_now && show
tm send-keys -t wachat n
check "... n keeps them: nothing sent, her message still there" \
    eval "wait_gone 'Clear the chat' && ! has regular_high '[\"clearChat\",\"$AL@s.whatsapp.net\",\"0\",\"0\"]' clear_chat - && pane_has '│ *from Alice'"
tm send-keys -t wachat M-k
wait_pane 'Clear the chat Alice' >/dev/null
tm send-keys -t wachat y
check "... y: clearChat (starred kept, no media) in the sim by wachat's device" \
    wait_for has regular_high "[\"clearChat\",\"$AL@s.whatsapp.net\",\"0\",\"0\"]" clear_chat -
failed_now && { diag "$tmp/why"; show; }
check "... and her message is gone from the pane" wait_gone '│ *from Alice'
failed_now && show
tm send-keys -t wachat M-x
check "Alt-x asks before deleting the chat with Alice" \
    wait_pane 'Delete the chat Alice.* everywhere\? y deletes it, n keeps it'
failed_now && show
tm send-keys -t wachat y
check "... y: deleteChat in the sim by wachat's device" \
    wait_for has regular_high "[\"deleteChat\",\"$AL@s.whatsapp.net\",\"0\"]" delete_chat -
failed_now && { diag "$tmp/why"; show; }
check "... and Alice leaves the chat list" wait_gone '^🔇 Alice'
failed_now && show
check "... her chat is closed" wait_pane 'No chat open'
failed_now && show
check "... chats --json lists her no more" eval "! chat_is '$AL@s.whatsapp.net' jid '\"$AL@s.whatsapp.net\"'"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]

# Offline: the server cannot be reached (a closed port); Bob's pin waits
# in the outbox, across a restart.
URL="wss://127.0.0.1:1/ws/chat"
start_pane --ca-file "$tmp/cert.pem"
check "started offline, the list is there from the store" wait_pane 'Bob Novak'
failed_now && show
pick_chat Bob
check "... the picker opens Bob" wait_pane 'Bob Novak *$'
tm send-keys -t wachat M-t
check "... Alt-t: the note says it goes once connected" \
    wait_pane 'offline: the change goes to your phone once connected'
failed_now && show
check "... the sim has no pin of Bob" eval "! has regular_low '[\"pin_v1\",\"$BO@s.whatsapp.net\"]' pin true"
check "... nor does the list show one" pane_lacks '📌 Bob'
tm send-keys -t wachat C-q
st=$(exit_status)
check "... Ctrl-q quits offline: exit 0" [ "$st" = 0 ]
URL=$GOOD_URL
start_pane --ca-file "$tmp/cert.pem"
check "started again online, wachat connects" wait_pane "connected as .*\\+$A"
check "... and sends Bob's pin kept in the outbox" \
    wait_for has regular_low "[\"pin_v1\",\"$BO@s.whatsapp.net\"]" pin true
failed_now && { diag "$tmp/why"; show; }
check "... the list shows Bob pinned" wait_pane '📌 Bob'
failed_now && show
check "... chats --json: pinned" chat_is "$BO@s.whatsapp.net" pinned true
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1
finish_sim_tmux
