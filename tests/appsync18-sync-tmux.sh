#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: wachat syncs the phone's app state.  wachat in a detached
# 100x30 tmux pane against wachat-sim set up as tools/demo.sh sets it up
# (its ctl lines: three contacts, a history of 40 chats, Alice muted for
# good, Bob for 8 hours, Echo pinned, the history's oldest chat archived).
# Once linked, every chat of a contact goes by its address-book name (the
# phone's, not the push name) in the chat list on the screen and in
# `wachat chats --json`, which shows the muted, pinned and archived chats
# as the phone has them; a contact the phone renames afterwards (the
# sim's admin route: a patch and a server_sync notification) is renamed
# in wachat, on the screen too; started again, wachat asks only from the
# versions it stored.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"

# tools/demo.sh's world.
ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact 15550000002 100000000000002 "Echo" $A >/dev/null 2>&1
ctl contact 15550000003 100000000000003 "Alice" $A >/dev/null 2>&1
ctl contact 15550000004 100000000000004 "Bob" $A >/dev/null 2>&1
ctl history-set $A 40 3000 1 >/dev/null 2>&1
ctl appstate-mute $A 15550000003@s.whatsapp.net always >/dev/null 2>&1
ctl appstate-mute $A 15550000004@s.whatsapp.net +28800 >/dev/null 2>&1
ctl appstate-pin $A 15550000002@s.whatsapp.net on >/dev/null 2>&1
ctl appstate-archive $A 15557000032@s.whatsapp.net on >/dev/null 2>&1

# agrees [MIN]: wachat's chats say what the phone's app state says, with
# at least MIN chats named by the address book (differences in
# $tmp/diff).
agrees() {
	"$W" chats --json --data-dir "$tmp/data" >"$tmp/chats" 2>/dev/null &&
	    "$W" chats --archived --json --data-dir "$tmp/data" >>"$tmp/chats" \
	    2>/dev/null &&
	    ctl appstate $A >"$tmp/state" 2>&1 &&
	    python3 "${top_srcdir:-.}/tests/appsync18-compare.py" "$tmp/chats" \
	    "$tmp/state" "$(($(date +%s) * 1000))" "${1:-1}" >"$tmp/diff"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
check "every chat of a contact goes by its address-book name, and the muted, pinned and archived chats are the phone's (wachat chats --json)" \
    wait_for agrees 30
failed_now && { diag "$tmp/diff"; show; }
check "... Echo is pinned, Alice and Bob muted, the oldest history chat archived" \
    python3 -c '
import json, sys
c = {x["jid"]: x for x in map(json.loads, open(sys.argv[1])) if x.get("type") == "chat"}
p = "@s.whatsapp.net"
sys.exit(0 if c["15550000002" + p]["pinned"] and c["15550000003" + p]["muted"]
    and c["15550000004" + p]["muted"] and c["15557000032" + p]["archived"]
    else 1)' "$tmp/chats"
failed_now && diag "$tmp/chats"
check "the screen's chat list names Echo by the address book: Echo Okafor" \
    wait_pane 'Echo Okafor'
failed_now && show
check "... one event per batch, not per record: a log line per committed patch, the chat list read again" \
    grep -q 'app state critical_unblock_low: snapshot [0-9]* committed' "$LOG"
failed_now && show

# The phone renames Alice: a patch and server_sync.
ctl appstate-contact $A 15550000002@s.whatsapp.net "Echo Renamed Bot" \
    >"$tmp/rn" 2>&1
check "the phone renames Echo (a patch, a server_sync to wachat)" \
    grep -q 'Echo Renamed Bot' "$tmp/rn"
failed_now && diag "$tmp/rn"
renamed() {
	agrees 30 && grep -q '"name":"Echo Renamed Bot"' "$tmp/chats"
}
check "after server_sync wachat calls Echo 'Echo Renamed Bot' (chats --json), and still agrees with the phone" \
    wait_for renamed
failed_now && { diag "$tmp/diff"; show; }
check "... and so does the screen's chat list" wait_pane 'Echo Renamed Bot'
failed_now && show
check "... the server sent server_sync and wachat asked again" \
    grep -q 'app state critical_unblock_low: patch [0-9]* committed' "$LOG"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]

# Started again: the sync iq asks from the stored versions (no snapshot
# again), nothing changes.
n0=$(grep -c 'snapshot [1-9][0-9]* committed' "$LOG")
start_pane --ca-file "$tmp/cert.pem"
check "started again, wachat connects" wait_pane "connected as .*\\+$A"
failed_now && show
fetched_again() {
	ctl appstate $A >"$tmp/st2" 2>&1 &&
	    python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["fetches"] >= int(sys.argv[2]) else 1)' \
	    "$tmp/st2" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fetches"] + 1)' "$tmp/state")"
}
check "... asks the server again" wait_for fetched_again
failed_now && diag "$tmp/st2"
check "... from its stored versions: no snapshot taken a second time" \
    test "$(grep -c 'snapshot [1-9][0-9]* committed' "$LOG")" = "$n0"
check "... and still agrees with the phone" agrees 30
failed_now && diag "$tmp/diff"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
