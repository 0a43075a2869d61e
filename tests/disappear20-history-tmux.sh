#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Disappearing messages from the phone's history (issue 20,
# protocol-features.md 3.5: Conversation.ephemeralExpiration 9 and
# ephemeralSettingTimestamp 10): the sim's history (made a year before
# today) gives its newest chat a 7-day timer set before its oldest
# message (POST /admin/history/ephemeral), and the next one a 24-hour
# timer set after its newest.  Once wachat (in a tmux pane) has imported
# it, each chat keeps its timer (the database, the bar when opened); the
# first chat's messages, sent under a timer long run out, are gone from
# the database and the search, the second's, sent before its timer, are
# all kept.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl sqlite3 python3 openssl

sim_start_tls
ctl account $A 100000000000001 alice >/dev/null 2>&1
post() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' -d "$2" \
	    "$ADMIN/admin/$1" >>"$tmp/posts" 2>&1
}
post history "{\"pn\":\"$A\",\"chats\":3,\"messages\":18,\"seed\":7}"
curl -sf -m 30 "$ADMIN/admin/history?pn=$A" >"$tmp/hist.json" 2>&1
# field N KEY: KEY of the history's chat N (1:1 or group)
field() {
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["chat_list"][int(sys.argv[2])]; print(c["newest"]["ts"] if sys.argv[3]=="newest" else c[sys.argv[3]])' \
	    "$tmp/hist.json" "$1" "$2" 2>>"$tmp/py.err"
}
J0=$(field 0 jid) N0=$(field 0 name) O0=$(field 0 oldest_ts)
J1=$(field 1 jid) N1=$(field 1 name) T1=$(field 1 newest) C1=$(field 1 messages)
check "the sim's history has two chats with messages (${N0:-?}, ${N1:-?})" \
    [ -n "$O0" ] && [ -n "$T1" ] && [ "${C1:-0}" -gt 0 ]
post history/ephemeral "{\"pn\":\"$A\",\"jid\":\"$J0\",\"secs\":604800,\"ts\":$((O0 - 10))}"
post history/ephemeral "{\"pn\":\"$A\",\"jid\":\"$J1\",\"secs\":86400,\"ts\":$((T1 + 10))}"
check "the route takes both timers" [ "$(grep -c '"jid"' "$tmp/posts")" -ge 2 ]

start_pane --ca-file "$tmp/cert.pem"
link_and_connect

# q SQL: one value from wachat's database.
q() {
	sqlite3 -readonly "$tmp/data/wachat.db" "$1" 2>>"$tmp/sql"
}
is() {
	[ "$(q "$1")" = "$2" ]
}
check "the second chat's messages are all imported ($C1)" wait_cmd 300 \
    is "SELECT count(*) FROM message WHERE chat = '$J1' AND kind != 2" "$C1"
check "... none of them expires: sent before its timer" \
    is "SELECT count(*) FROM message WHERE chat = '$J1' AND expire_s > 0" 0
check "its timer is kept: 24 hours" \
    is "SELECT ephemeral_s FROM chat WHERE jid = '$J1'" 86400
check "the first chat's timer is kept: 7 days" wait_cmd 100 \
    is "SELECT ephemeral_s FROM chat WHERE jid = '$J0'" 604800
check "... its messages, sent under it a year ago, are gone from the database" \
    wait_cmd 100 is "SELECT count(*) FROM message WHERE chat = '$J0' AND kind != 2" 0
check "... by the engine's expiry (its log counts them)" \
    wait_grep "$LOG" '[0-9]+ expired messages deleted'
W0=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["chat_list"][0]["newest"]; print((c.get("text") or "").split()[0] if c.get("text") else "")' "$tmp/hist.json" 2>>"$tmp/py.err")
if [ -n "$W0" ]; then
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" search "$W0" --data-dir "$tmp/data" \
	    --json >"$tmp/search" 2>&1
	check "... and from the search (\"$W0\" finds nothing of that chat)" \
	    eval "! grep -q '$J0' '$tmp/search'"
else
	not_ok "the first chat's newest message has a word to look for"
fi
failed_now && { diag "$tmp/sql"; diag "$tmp/posts"; }

pick_chat "$N1"
check "the second chat open: its bar says disappearing: 24 hours" \
    wait_pane 'disappearing: 24 hours'
failed_now && show
pick_chat "$N0"
check "the first: disappearing: 7 days" wait_pane 'disappearing: 7 days'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
finish_sim_tmux
