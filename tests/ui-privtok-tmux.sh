#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Privacy tokens on the chat screen (protocol.md 15.6, issue 16): wachat
# in a detached 100x30 tmux pane against a strict wachat-sim
# (tests/sim/tokens.c), linked as alice.  Bob takes 1:1 messages only
# with a token; when he writes, the server hands alice his token (a
# privacy_token notification): her answer carries it and its tick goes
# to delivered (✓✓).  Dave refuses even with a token: alice's message to
# him shows failed (!) with the reason on the screen (the privacy token,
# error 463), after exactly two sends, and stays in the chat.  TAP.
# Every wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000002
D=15550000004
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

need curl
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000002 bob $A >/dev/null 2>&1
ctl contact $D 100000000000004 dave $A >/dev/null 2>&1
check "the sim marks bob as requiring a token and dave as refusing" sh -c \
    "curl -sf -X POST -d '{\"pn\":\"$B\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"token\"' &&
     curl -sf -X POST -d '{\"pn\":\"$D\",\"mode\":\"refuse\"}' '$ADMIN/admin/tokens/require' | grep -q '\"mode\":\"refuse\"'"

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
link_and_connect

# delivered_tick: a fresh capture shows our newest message's tick as ✓✓.
last_tick() {
	capture
	sed -n 's/^.*│ *You [0-9][0-9]:[0-9][0-9] \([^ ]*\) *$/\1/p' \
	    "$tmp/pane" | tail -n 1
}
tick_is() {
	[ "$(last_tick)" = "$1" ]
}

# Bob writes: his chat comes, and with it his token.
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob'
check "... and the server gave alice bob's token (privacy_token, acked)" \
    wait_ctl '"type":"privacy_token",[^}]*"acked":true' messages
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
tm send-keys -t wachat -l "hi bob"
tm send-keys -t wachat Enter
check "alice's answer to bob shows as hers" \
    wait_pane '^.*│ *You [0-9]{2}:[0-9]{2}'
check "... its tick goes to delivered (✓✓): it carried bob's token" \
    wait_cmd "$WAIT" tick_is "✓✓"
failed_now && show
check "... bob's phone read it" wait_ctl '"text":"hi bob"' phone-inbox $B

# Dave writes; alice's answer is refused even with a token.
ctl phone-send $D $AJ "hello from dave" >/dev/null 2>&1
check "dave's chat shows in the list" wait_pane 'hello from dave'
# dave_open: Tab until dave's chat is the one open (bounded).
dave_open() {
	tm send-keys -t wachat Tab
	pane_has '^.*│ *dave [0-9]{2}:[0-9]{2}'
}
check "Tab opens dave's chat" wait_cmd 100 dave_open
failed_now && show
tm send-keys -t wachat -l "hi dave"
tm send-keys -t wachat Enter
check "alice's message to dave shows failed (!)" wait_cmd "$WAIT" tick_is "!"
failed_now && show
check "... the screen says why, whole: the privacy token, error 463" \
    wait_pane 'the contact takes messages only with a privacy token \(error 463\)'
failed_now && show
check "... after exactly two sends (one resend), both refused with 463" sh -c \
    "[ \"\$(grep -c 'to $D@s.whatsapp.net: the addressee requires a privacy token and the addressee refuses it: ack error 463' '$tmp/sim.log')\" -eq 2 ]"
check "... and the message stays in the chat" wait_pane 'hi dave'
check "... wachat is still running" [ ! -e "$tmp/status" ]
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
