#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the send side without a key: an account whose app state is
# empty gets no app-state key from its phone at first (the sim shares it
# with the phone's first patch).  wachat in a detached 100x30 tmux pane
# against wachat-sim: Bob (another account, no contact) sent us a
# message; Tab opens him, Alt-t pins him: the line over the input says
# app state is not synced yet, the sim gets nothing, the list shows no
# pin.  Then the phone authors its first patch (it mutes Bob): the key
# share comes, wachat syncs that mute and sends the pin kept in its
# outbox, which the sim stores as wachat's and the list shows (pinned and
# muted).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
AJ=$A@s.whatsapp.net
BO=15550000009
S="${top_srcdir:-.}/tests/asmut18-state.py"

need openssl python3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"

ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl account $BO 100000000000009 "Bob" >/dev/null 2>&1

st() {
	ctl appstate $A >"$tmp/state" 2>&1
}
has() {
	st && python3 "$S" "$tmp/state" action "$@" >"$tmp/why"
}
shares() {
	st && python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["key_shares"])' "$tmp/state"
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
ctl phone-send $BO $AJ "hello from Bob" >/dev/null 2>&1
check "Bob's chat is listed" wait_pane 'hello from Bob'
failed_now && show
check "... and the phone has shared no app-state key: its app state is empty" \
    test "$(shares)" = 0
tm send-keys -t wachat Tab
wait_pane 'hello from Bob *$' >/dev/null
tm send-keys -t wachat M-t
check "Alt-t without a key: the line says app state is not synced yet" \
    wait_pane 'app state is not synced yet: the change waits for it'
failed_now && show
check "... the sim got no patch" eval "! has regular_low '[\"pin_v1\",\"$BO@s.whatsapp.net\"]' pin true"
check "... the list shows no pin" pane_lacks '📌'
check "... it waits in the outbox, logged" \
    grep -q 'own app-state changes wait: no app-state key yet' "$LOG"

ctl appstate-mute $A "$BO@s.whatsapp.net" always >/dev/null 2>&1
check "the phone's first patch (it mutes Bob) brings the key share" \
    wait_for eval '[ "$(shares)" -ge 1 ]'
check "... wachat syncs that mute and sends the waiting pin: the sim holds it, by wachat's device" \
    wait_for has regular_low "[\"pin_v1\",\"$BO@s.whatsapp.net\"]" pin true
failed_now && { diag "$tmp/why"; show; }
check "... the list shows Bob pinned and muted" wait_pane '📌🔇 Bob'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1
finish_sim_tmux
