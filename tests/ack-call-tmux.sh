#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Incoming calls (issue 16 point 2; protocol-features.md 5, protocol.md
# 11.7): the sim's contact Bob calls alice (`ctl call`), which sends
# <call><offer/></call> to alice's wachat in a tmux pane and, 3 s later,
# <call><terminate reason="timeout"/></call>.  The sim keeps each <call>
# until the device acks it with a matching <ack class="call" id to>, and
# sends it again at each login until then, as the real server does.
# wachat acks both (none is left unacked in the sim), the chat list's
# preview and the chat show "Incoming voice call", then "Missed voice
# call"; after a restart nothing is sent again (no redelivery) and the
# lines, read back from the database, are there; a video call that
# rings while wachat is stopped comes from the offline queue at the next
# login, over: "Missed video call" at once, one line; `wachat history`
# prints the calls in words, never their stored code; the line mode
# says a call answered on another device as it comes; wachat never
# answers or rejects (no <call> from it).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001
BOB=15550000002

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1
ctl contact $BOB 100000000000002 Bob $PN >/dev/null 2>&1

pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}

# unacked: how many <call> stanzas the sim still holds unacked.
unacked() {
	ctl messages | grep -o '"kind":"call"[^}]*' | grep -c '"acked":false'
}
# calls_acked N: the sim routed N <call> stanzas and holds none unacked.
calls_acked() {
	[ "$(ctl messages | grep -o '"kind":"call"' | wc -l)" -eq "$1" ] &&
	    [ "$(unacked)" -eq 0 ]
}
status_has() {
	ctl status | grep -q "$1"
}
# quit_pane: Ctrl-q, which must stop wachat with exit 0.
quit_pane() {
	tm send-keys -t wachat C-q
	qp_st=$(exit_status)
	check "Ctrl-q stops wachat: exit 0" [ "$qp_st" = 0 ]
	tm kill-server >/dev/null 2>&1
}

pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" >"$tmp/scan" 2>&1
check "wachat links and is connected" wait_pane "connected as .*\\+$PN"
[ $? -eq 0 ] || show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

ctl call $BOB $PN --after 3000 >"$tmp/call1" 2>&1
check "Bob calls: the sim sends the offer to alice's device" \
    grep -q '"devices":1' "$tmp/call1" || diag "$tmp/call1"
check "the chat list shows the call: Incoming voice call" \
    wait_pane 'Incoming voice call'
[ $? -eq 0 ] || show
tm send-keys -t wachat Tab
check "it ends unanswered (timeout): the chat says Missed voice call" \
    wait_panes 'Incoming voice call' 'Missed voice call'
[ $? -eq 0 ] || show
check "wachat acked the offer and the terminate (the sim holds no call)" \
    wait_cmd "$WAIT" calls_acked 2
[ $? -eq 0 ] || ctl messages | grep -o '"kind":"call"[^}]*' | sed 's/^/# /'
check "... no ack that did not match" status_has '"unmatched_acks":0'
check "... no stored code on the screen" \
    eval '! grep -q "wachat-notice" "$tmp/pane"'
quit_pane

# While wachat is stopped, Bob makes a video call that times out: both
# <call> stanzas wait in alice's device's offline queue.
ctl call $BOB $PN --video --after 200 >"$tmp/call2" 2>&1
check "a video call while wachat is stopped: queued for the device" \
    grep -q '"devices":1' "$tmp/call2" || diag "$tmp/call2"
routed() {
	[ "$(ctl messages | grep -o '"kind":"call"' | wc -l)" -eq "$1" ]
}
wait_cmd "$WAIT" routed 4

pane
check "started again, it connects" wait_pane "connected as .*\\+$PN"
tm send-keys -t wachat Tab
check "the offline video call shows as missed, the first call's lines kept" \
    wait_panes 'Missed video call' 'Incoming voice call' 'Missed voice call'
[ $? -eq 0 ] || show
check "... the offline offer never says it rings" \
    eval '! grep -q "Incoming video call" "$tmp/pane"'
check "wachat acked the offline ones too (4 calls routed, none unacked)" \
    wait_cmd "$WAIT" calls_acked 4
[ $? -eq 0 ] || ctl messages | grep -o '"kind":"call"[^}]*' | sed 's/^/# /'
check "nothing was sent again at the login (redeliveries 0)" \
    status_has '"redeliveries":0'
[ $? -eq 0 ] || ctl status | sed 's/^/# /'
check "wachat never answers or rejects a call (no <call> from it)" \
    eval '! grep -A1 "unhandled stanza" "$tmp/sim.log" | grep -q "<call"'
quit_pane

# The line mode (output not a terminal) says a call as it comes.
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" --url "$URL" --root-key "$ROOT_PUB" \
    --data-dir "$tmp/data" >"$tmp/lines" 2>"$tmp/lines.err" </dev/null &
lpid=$!
bg_pids="$bg_pids $lpid"
wait_grep "$tmp/lines" "^connected as \\+$PN\$"
ctl call $BOB $PN --after 500 --end accepted_elsewhere >"$tmp/call3" 2>&1
check "the line mode says the call rings, then that it was answered elsewhere" \
    eval 'wait_grep "$tmp/lines" ": \(Incoming voice call\)\$" &&
    wait_grep "$tmp/lines" ": \(Answered on another device\)\$"'
[ $? -eq 0 ] || { diag "$tmp/lines"; diag "$tmp/lines.err"; }
check "... both acked (6 calls routed, none unacked)" \
    wait_cmd "$WAIT" calls_acked 6
kill -TERM "$lpid" 2>/dev/null
wait_for not_running "$lpid"

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$BOB" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "wachat history prints the calls in words" \
    eval 'grep -q "Missed voice call" "$tmp/hist" &&
    grep -q "Missed video call" "$tmp/hist" &&
    ! grep -q "wachat-notice" "$tmp/hist"'
[ $? -eq 0 ] || diag "$tmp/hist"
[ "$(grep -c 'Missed video call' "$tmp/hist")" -eq 1 ]
check "... the offline call once" [ $? -eq 0 ]
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" chats --data-dir "$tmp/data" \
    >"$tmp/chats" 2>&1
check "wachat chats previews Bob's chat by its last call, in words" \
    grep -q "Answered on another device" "$tmp/chats"
[ $? -eq 0 ] || diag "$tmp/chats"
finish_sim_tmux
