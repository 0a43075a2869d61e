#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Polls (issue 20), in a real terminal: wachat in a tmux pane against
# wachat-sim, linked as alice.  Bob's phone votes on a poll before
# sending it (the vote waits for its poll), then sends it
# (POST /admin/mock-phone/send-poll: one answer, its messageSecret named
# by the test), changes his vote, sends a poll of several answers and
# votes on it (send-vote, encrypted as protocol-features.md 3.1 says);
# alice's own phone votes too.  The pane shows the question, the options
# and who voted for what by name, updated as the votes come; after a
# restart the same; wachat history and export print the tally.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl python3

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

S1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
S2=f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff
P1=3EB0000000000000000001
P2=3EB0000000000000000002
# post ROUTE JSON-MEMBERS: the sim's admin route, its answer in $tmp/sent
post() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{$2}" "$ADMIN/admin/mock-phone/$1" >>"$tmp/sent" 2>&1
}
# vote FROM TO POLL CREATOR SECRET OPTIONS-JSON
vote() {
	post send-vote "\"from_pn\":\"$1\",\"to\":\"$2\",\"poll_id\":\"$3\",\"creator\":\"$4\",\"secret\":\"$5\",\"options\":$6"
}

start_pane
link_and_connect

vote $B $AJ $P1 $BJ $S1 '["Pasta"]'
check "the route sends a vote before its poll" grep -q '"id":"3EB0' "$tmp/sent"
check "... wachat keeps it for the poll" \
    wait_grep "$LOG" "poll $P1: a vote before its poll, kept"
post send-poll "\"from_pn\":\"$B\",\"to\":\"$AJ\",\"id\":\"$P1\",\"name\":\"What for dinner?\",\"options\":[\"Pizza\",\"Pasta\",\"Salad\"],\"selectable\":1,\"secret\":\"$S1\""
check "the route sends the poll" grep -q "\"id\":\"$P1\"" "$tmp/sent"
check "the chat list previews it" wait_pane 'Poll: What for dinner\?'
tm send-keys -t wachat Tab
check "Tab opens bob's chat: the question" \
    wait_pane '│ +Poll: What for dinner\?$'
check "... one answer allowed" wait_pane '│ +\(one answer\)$'
check "... the waiting vote counted: Pasta, by bob" \
    wait_pane '│ +2\. Pasta — 1 \(bob\)$'
check "... the others none" wait_pane '│ +1\. Pizza — 0$'
check "... Salad none" wait_pane '│ +3\. Salad — 0$'
failed_now && show

vote $B $AJ $P1 $BJ $S1 '["Pizza"]'
check "bob changes his vote: Pizza has it" \
    wait_pane '│ +1\. Pizza — 1 \(bob\)$'
check "... Pasta no more (his vote replaced)" \
    wait_pane '│ +2\. Pasta — 0$'
failed_now && show

post send-poll "\"from_pn\":\"$B\",\"to\":\"$AJ\",\"id\":\"$P2\",\"name\":\"Which days?\",\"options\":[\"Mon\",\"Tue\",\"Wed\"],\"selectable\":0,\"secret\":\"$S2\""
check "a poll of several answers" wait_pane '│ +Poll: Which days\?$'
check "... says so" wait_pane '│ +\(one or more answers\)$'
vote $B $AJ $P2 $BJ $S2 '["Mon","Wed"]'
check "bob picks two: Mon" wait_pane '│ +1\. Mon — 1 \(bob\)$'
check "... and Wed" wait_pane '│ +3\. Wed — 1 \(bob\)$'
# alice's own phone votes on bob's poll (its copy reaches wachat)
vote $A $BJ $P2 $BJ $S2 '["Wed"]'
check "our own phone's vote: You" \
    wait_pane '│ +3\. Wed — 2 \(bob, You\)$'
check "... Tue none" wait_pane '│ +2\. Tue — 0$'
# a vote that does not decrypt (the wrong secret) changes nothing
vote $B $AJ $P2 $BJ $S1 '["Tue"]'
check "a vote under the wrong secret is dropped (logged)" \
    wait_grep "$LOG" "poll $P2: a vote that does not decrypt"
check "... the tally stays" pane_has '│ +2\. Tue — 0$'
failed_now && show

# our vote from the screen (Alt-b): bob's phone gets it and decrypts it
# (tests/interop/wa-poll-tool, checked against Baileys by poll-check.sh)
# to the options chosen
# votes N: the Nth vote (from 1) bob's phone got: its options, decrypted
# with SECRET for POLL (creator bob, voter alice).
votes() {
	ctl phone-inbox $B >"$tmp/inbox" 2>&1
	v=$(grep -o '"vote":"[0-9a-f]*:[0-9a-f]*"' "$tmp/inbox" |
	    sed -n "${1}p" | sed 's/"vote":"\([^"]*\)"/\1/')
	[ -n "$v" ] && "$TOOL" dec "$3" "$2" $BJ $AJ "${v#*:}" "${v%%:*}" \
	    Pizza Pasta Salad Mon Tue Wed 2>&1 | tr '\n' ' '
}
# vote_is N POLL SECRET WANT: the Nth vote decrypts to WANT.
vote_is() {
	[ "$(votes "$1" "$2" "$3")" = "$4" ]
}
TOOL="$b/tests/interop/wa-poll-tool"
tm send-keys -t wachat Up
check "Up selects the newest poll: the line over the input offers Alt-b" \
    wait_pane 'Alt-b vote'
tm send-keys -t wachat M-b
check "Alt-b opens the chooser: our phone's vote ticked" \
    wait_pane 'Vote: ▸\[ \]1 Mon \[ \]2 Tue \[x\]3 Wed; digits or Space'
tm send-keys -t wachat 2
check "2 ticks Tue too (several answers)" \
    wait_pane 'Vote: \[ \]1 Mon ▸\[x\]2 Tue \[x\]3 Wed'
tm send-keys -t wachat Enter
check "Enter votes: Tue is ours now" wait_pane '│ +2\. Tue — 1 \(You\)$'
check "... Wed still bob's and ours" wait_pane '│ +3\. Wed — 2 \(bob, You\)$'
check "bob's phone gets our vote and decrypts it to Tue and Wed" \
    wait_for vote_is 2 $P2 $S2 'Tue Wed '
failed_now && { show; diag "$tmp/inbox"; }
tm send-keys -t wachat Up Up
tm send-keys -t wachat M-b
check "the first poll's chooser: one answer" \
    wait_pane 'Vote \(one\): ▸\[ \]1 Pizza \[ \]2 Pasta \[ \]3 Salad'
tm send-keys -t wachat 3 1
check "1 after 3: one answer, Pizza" \
    wait_pane 'Vote \(one\): ▸\[x\]1 Pizza \[ \]2 Pasta \[ \]3 Salad'
tm send-keys -t wachat Right Right Space
check "Right, Right, Space: Salad instead" \
    wait_pane 'Vote \(one\): \[ \]1 Pizza \[ \]2 Pasta ▸\[x\]3 Salad'
tm send-keys -t wachat Enter
check "Enter: our vote for Salad" wait_pane '│ +3\. Salad — 1 \(You\)$'
check "bob's phone decrypts it to Salad" \
    wait_for vote_is 3 $P1 $S1 'Salad '
tm send-keys -t wachat Up M-b
check "the chooser again: Salad ticked" \
    wait_pane 'Vote \(one\): ▸\[ \]1 Pizza \[ \]2 Pasta \[x\]3 Salad'
tm send-keys -t wachat 1 Enter
check "a changed vote: Pizza, bob's and ours" \
    wait_pane '│ +1\. Pizza — 2 \(bob, You\)$'
check "... Salad no more" wait_pane '│ +3\. Salad — 0$'
check "bob's phone decrypts the new vote to Pizza" \
    wait_for vote_is 4 $P1 $S1 'Pizza '
failed_now && { show; diag "$tmp/inbox"; }

# a poll of ours (Alt-q): question, options, one or several answers
tm send-keys -t wachat Escape M-q
check "Alt-q asks the poll's question" \
    wait_pane 'New poll: its question, Enter goes on to its options'
tm send-keys -t wachat -l 'Lunch where?'
tm send-keys -t wachat Enter
check "... then its options" wait_pane 'Option 1 \(2 to 12\): Enter adds it'
tm send-keys -t wachat -l Cafe
tm send-keys -t wachat Enter Enter
check "one option is not enough" \
    wait_pane 'a poll needs two options at least'
tm send-keys -t wachat -l Cafe
tm send-keys -t wachat Enter
check "the same option twice is refused" \
    wait_pane 'that option is there already'
tm send-keys -t wachat C-u
tm send-keys -t wachat -l Park
tm send-keys -t wachat Enter
check "... the third option asked" wait_pane 'Option 3 \(2 to 12\)'
tm send-keys -t wachat Enter
check "an empty Enter after two: one answer or several?" \
    wait_pane 'One answer or several\? 1 one, 2 several'
tm send-keys -t wachat 2
check "2: our poll is shown" wait_pane '│ +Poll: Lunch where\?$'
check "... several answers" \
    wait_panes '│ +\(one or more answers\)$' '│ +2\. Park — 0$'
# poll_of: the id and messageSecret of the poll bob's phone got
poll_of() {
	ctl phone-inbox $B >"$tmp/inbox" 2>&1
	python3 -c 'import json,sys
for m in json.load(open(sys.argv[1]))["inbox"]:
    if m.get("text","").startswith("poll\nq=Lunch where?") and m.get("poll_secret"):
        print(m["id"], m["poll_secret"]); break' "$tmp/inbox"
}
# got_poll: bob's phone has a poll with its secret
got_poll() {
	ctl phone-inbox $B 2>/dev/null | grep -q '"poll_secret":"[0-9a-f]\{64\}"'
}
check "bob's phone gets our poll with its secret" wait_for got_poll
set -- $(poll_of)
P3=$1 S3=$2
check "... any number of answers: sel 0 (pollCreationMessage, as Baileys)" \
    grep -q 'sel=0\\nopt=Cafe\\nopt=Park' "$tmp/inbox"
vote $B $AJ "$P3" $AJ "$S3" '["Park"]'
check "bob votes on our poll: the tally updates" \
    wait_pane '│ +2\. Park — 1 \(bob\)$'
failed_now && { show; diag "$tmp/inbox"; }

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

start_pane
check "after a restart: connected" wait_pane "connected as .*\\+$A"
tm send-keys -t wachat Tab
check "... the tally is still there" wait_pane '│ +1\. Pizza — 2 \(bob, You\)$'
check "... and the other poll's" wait_pane '│ +3\. Wed — 2 \(bob, You\)$'
check "... and our own poll's" wait_pane '│ +2\. Park — 1 \(bob\)$'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits again (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "history: the poll" grep -q 'bob: Poll: What for dinner?' "$tmp/hist"
check "... its tally (ASCII dashes)" grep -q '1\. Pizza - 2 (bob, You)' "$tmp/hist"
check "... the other's" grep -q '3\. Wed - 2 (bob, You)' "$tmp/hist"
failed_now && diag "$tmp/hist"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" export "+$B" --format jsonl \
    --data-dir "$tmp/data" >"$tmp/export" 2>&1
check "export: the poll in words with its tally" grep -q \
    '"kind":"rich","text":"Poll: What for dinner?\\n(one answer)\\n  1\. Pizza - 2 (bob, You)\\n  2\. Pasta - 0\\n  3\. Salad - 0","rich":{"type":"poll"' \
    "$tmp/export"
check "... and its votes as fields" grep -q \
    '\["vote","15550000003@s.whatsapp.net"\],\["by","bob"\],\["pick","1"\]' \
    "$tmp/export"
check "... no secret in the export or the log" \
    sh -c "! grep -qi '$S1' '$tmp/export' '$LOG'"
failed_now && diag "$tmp/export"
finish_sim_tmux
