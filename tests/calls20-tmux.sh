#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A call that rings, declined or left to ring out (issue 20 point 1;
# protocol-features.md 5): the sim's contact Bob calls alice (`ctl
# call`), whose wachat runs in a tmux pane with a notify-command that
# writes what it is given to a file.  While it rings the status line
# says "incoming voice call from Bob — Alt-0 rejects" and the
# notify-command runs with the call's words; Alt-0 (reject-call) sends
# <call to=Bob><reject call-id call-creator count="0"/></call>, which the
# sim checks against the call that rings (to and from without a device,
# the call-creator, count) and counts as well-formed (call_rejects in
# /admin/status; none malformed); the chat says "Declined voice call",
# the status line rings no more and the sim sends alice's device no
# terminate for it (the reject ended the call).  A second call left
# alone rings out: "Missed voice call", and the status line is back to
# "connected as"; Alt-0 then, with nothing ringing, says so.  `wachat
# history` prints "Declined voice call".  The key page names the key.
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
BOB=15550000002

. "${top_srcdir:-.}/tests/tmux-lib.sh"

cat >"$tmp/notify.sh" <<EOS
#!/bin/sh
printf '%s|%s\n' "\$1" "\$2" >>'$tmp/notified'
EOS
chmod +x "$tmp/notify.sh"
: >"$tmp/notified"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $BOB 100000000000002 Bob $A >/dev/null 2>&1

start_pane --notify-command "'$tmp/notify.sh'"
link_and_connect

# calls_routed N: the sim routed N <call> stanzas to alice's device.
calls_routed() {
	[ "$(ctl messages | grep -o '"kind":"call"' | wc -l)" -eq "$1" ]
}
status_has() {
	ctl status | grep -q "$1"
}
# top_line: the pane's first row (the status line).
top_line() {
	capture
	head -n 1 "$tmp/pane"
}
top_has() {
	top_line | grep -q -- "$1"
}

ctl call $BOB $A --after 300000 >"$tmp/call1" 2>&1
check "Bob calls: the sim sends the offer to alice's device" \
    grep -q '"devices":1' "$tmp/call1" || diag "$tmp/call1"
check "the status line says the call rings and the key that declines it" \
    wait_cmd "$WAIT" top_has 'incoming voice call from Bob — Alt-0 rejects'
failed_now && show
check "the notify-command runs with the caller and the call's words" \
    wait_cmd "$WAIT" grep -q '^Bob|Incoming voice call$' "$tmp/notified"
failed_now && diag "$tmp/notified"
tm send-keys -t wachat Tab
check "the chat shows the call ringing" wait_pane 'Incoming voice call'

tm send-keys -t wachat M-0
check "Alt-0: the sim got a well-formed reject of the call" \
    wait_cmd "$WAIT" status_has '"call_rejects":1,'
failed_now && ctl status | sed 's/^/# /'
check "... and none malformed" status_has '"call_rejects_bad":0'
failed_now && grep 'reject' "$tmp/sim.log" | sed 's/^/# sim: /'
check "... for the call that rang, by alice's device" \
    grep -q "call $(sed -n 's/.*"call_id":"\([^"]*\)".*/\1/p' \
    "$tmp/call1"): rejected by device 1 (reject .*, well-formed)" \
    "$tmp/sim.log"
check "the chat says Declined voice call" \
    wait_panes 'Incoming voice call' 'Declined voice call'
failed_now && show
check "the status line rings no more" \
    wait_cmd "$WAIT" sh -c "! tmux -u -S '$SOCK' capture-pane -p -t wachat |
    head -n 1 | grep -q 'incoming voice call'"
check "... and says the connection again" top_has "connected as"
check "the sim sent no terminate for the declined call (only the offer)" \
    calls_routed 1

ctl call $BOB $A --after 2000 >"$tmp/call2" 2>&1
check "a second call rings on the status line" \
    wait_cmd "$WAIT" top_has 'incoming voice call from Bob'
check "left alone, it rings out: Missed voice call" \
    wait_pane 'Missed voice call'
failed_now && show
check "... its terminate came (3 calls routed)" wait_cmd "$WAIT" calls_routed 3
check "... and the status line rings no more" \
    wait_cmd "$WAIT" sh -c "! tmux -u -S '$SOCK' capture-pane -p -t wachat |
    head -n 1 | grep -q 'incoming voice call'"
check "... the declined call's line stays" pane_has 'Declined voice call'
check "no reject was sent for it (still one)" status_has '"call_rejects":1,'
tm send-keys -t wachat M-0
check "Alt-0 with no call ringing says so" wait_pane 'no call rings'
check "... and sends nothing" status_has '"call_rejects_bad":0'

tm send-keys -t wachat C-g
wait_pane 'Keys .Up, Down'
tm send-keys -t wachat NPage NPage NPage
check "the key page names the reject-call key with Alt-r, at its end" \
    wait_pane 'Alt-0 Alt-r *decline a call; log in again'
failed_now && show
tm send-keys -t wachat Escape
wait_gone 'Keys .Up, Down'
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$BOB" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "wachat history prints the declined call and the missed one" \
    eval 'grep -q "Declined voice call" "$tmp/hist" &&
    grep -q "Missed voice call" "$tmp/hist" &&
    ! grep -q "wachat-notice" "$tmp/hist"'
failed_now && diag "$tmp/hist"
finish_sim_tmux
