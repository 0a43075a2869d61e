#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A contact's info page, profile pictures and blocking (issue 20): wachat
# in a 100x30 tmux pane (TERM=screen-256color: half-blocks) against
# wachat-sim, linked as alice, with bob's chat open.  Alt-g shows bob's
# page: under its title, bob's picture as the sim serves it (a 64x64
# JPEG, red on the left half, blue on the right) in 6 rows of
# half-blocks of xterm's red (196) and blue (21) (and, once his phone
# changes it and the sim sends the picture notification, the new one,
# green (46) | yellow (226), fetched again), his name, number,
# about text ("Hi, I am bob", from usync <status/>), and his last seen
# (set a minute ago through the sim's presence route, sent when wachat
# subscribes).  b asks, y blocks: the page,
# the chat's bar and the chat list say so, the sim's blocklist of alice
# holds bob's JID, and a text typed to bob is refused with the reason
# (it stays in the input).  wachat knows bob's LID (from the text it
# sent him first), so the block names him by it, his PN beside it, as
# whatsmeow does, and the sim keeps the LID.  Started again, the
# blocklist asked at login (the LID) marks bob's chat (a PN) again; b and y unblock: the marks go, the sim's list
# is empty.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net
BL=100000000000003@lid

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl python3 openssl

# TLS, so that wachat fetches the picture from the sim's media host
sim_start_tls
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# blocked_is LIST: the sim's account alice has exactly this blocklist
# (JSON array text, e.g. ["X"] or []).
blocked_is() {
	curl -sf -m 10 "$ADMIN/admin/accounts" >"$tmp/accts" 2>/dev/null &&
	    python3 -c '
import json, sys
want = json.loads(sys.argv[2])
for a in json.load(open(sys.argv[1])):
    if a.get("pn") == sys.argv[3]:
        sys.exit(0 if a.get("blocked") == want else 1)
sys.exit(1)' "$tmp/accts" "$1" $A
}

# pic [LEFT RIGHT]: the capture (with colours) has 6 rows of 12 cells
# under the page's title, xterm's LEFT | RIGHT (default red 196 | blue
# 21; tests/thumbs19-cells.py).
pic() {
	tm capture-pane -e -N -p -t wachat >"$tmp/pane-e" 2>/dev/null
	python3 "${top_srcdir:-.}/tests/thumbs19-cells.py" "$tmp/pane-e" \
	    "Contact info" 6 12 "${1:-196}" "${2:-21}" 2>"$tmp/cells.err"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's message comes in" wait_pane 'hello from bob'
# bob was last seen a minute ago (the sim's presence route): the page
# says it as the list says a time, HH:MM today, else "DD Mon"
seen=$(($(date +%s) - 60))
if [ "$(date -d "@$seen" +%F)" = "$(date +%F)" ]; then
	seen_as=$(date -d "@$seen" +%H:%M)
else
	seen_as=$(LC_ALL=C date -d "@$seen" '+%d %b')
fi
check "the sim takes bob's last seen" curl -sf -m 10 -X POST \
    -d "{\"pn\":\"$B\",\"available\":false,\"last_seen\":$seen}" \
    "$ADMIN/admin/profile/presence" -o /dev/null
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob'
# a text to bob first: wachat learns his LID from the server (usync)
tm send-keys -t wachat -l 'hi bob'
tm send-keys -t wachat Enter
check "alice's text reaches bob's phone" \
    wait_ctl '"text":"hi bob"' phone-inbox $B
tm send-keys -t wachat M-g
check "Alt-g shows bob's page" wait_pane '│ *Contact info'
check "... his picture in 6 rows of red | blue half-blocks" \
    wait_cmd "$WAIT" pic
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"
check "... his name and number" wait_panes '│ *bob( Tanaka)? *$' "Number: \\+$B"
check "... his about text" wait_pane 'About: Hi, I am bob'
check "... his last seen, from his presence" \
    wait_pane "Last seen: $seen_as"
check "... and the chat's bar says it too" wait_pane "last seen $seen_as"

check "... and the block key" wait_pane 'b blocks, Esc closes'
check "the sim was asked for bob's picture" \
    wait_grep "$tmp/sim.log" "picture of $B: id"
curl -sf -m 10 -X POST -d "{\"pn\":\"$B\"}" \
    "$ADMIN/admin/profile/picture" >"$tmp/newpic" 2>&1
check "bob changes his picture: the sim notifies wachat" \
    grep -q '"notified":1' "$tmp/newpic"
check "... wachat asks again and draws the new one, green | yellow" \
    wait_cmd "$WAIT" pic 46 226
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"
failed_now && show

tm send-keys -t wachat b
check "b asks first" wait_pane 'Block bob( Tanaka)?\? y blocks them, n does not'
tm send-keys -t wachat y
check "y blocks: the page says so" \
    wait_pane 'blocked: you blocked this contact'
check "... the key now unblocks" wait_pane 'b unblocks, Esc closes'
check "... the chat's bar says blocked" wait_pane '│ bob( Tanaka)? +blocked'
check "... the chat list marks bob" wait_pane '⊘ ?bob'
check "... the sim's blocklist holds bob, by his LID (his PN beside it)" \
    wait_cmd "$WAIT" blocked_is "[\"$BL\"]"
check "... the set named his PN beside the LID (pn_jid)" \
    grep -q "blocklist: blocked $BL pn_jid $B " "$tmp/sim.log"
failed_now && show
tm send-keys -t wachat Escape
input_read
tm send-keys -t wachat -l 'are you there'
tm send-keys -t wachat Enter
check "a text to bob is refused with the reason" \
    wait_pane 'not sent: you blocked this contact'
check "... and stays in the input" wait_pane '> are you there'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

start_pane --ca-file "$tmp/cert.pem"
check "started again: the blocklist asked at login (bob's LID) marks bob's chat" \
    wait_pane '⊘ ?bob'
tm send-keys -t wachat Tab
check "... bob's chat opens, blocked" wait_pane '│ bob( Tanaka)? +blocked'
tm send-keys -t wachat M-g
check "Alt-g: bob's page says blocked" \
    wait_pane 'blocked: you blocked this contact'
tm send-keys -t wachat b
check "b asks to unblock" wait_pane 'Unblock bob( Tanaka)?\? y unblocks'
tm send-keys -t wachat y
check "y unblocks: the page's key blocks again" \
    wait_pane 'b blocks, Esc closes'
check "... the chat list mark goes" wait_gone '⊘'
check "... the sim's blocklist is empty" wait_cmd "$WAIT" blocked_is '[]'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
