#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A burst of messages keeps its arrival order (issue 15, fixlock point
# 3; reliability.md: the displayed order is (t, seq)): a linked wachat
# takes 40 messages that bob's phone sends one after the other, through
# a wachat-sim whose clock is half a second behind (knob clock_ms=-500:
# every message is handled in the half second after its server second,
# as one handled late is).  The server's t has whole seconds; a message
# handled within its second took our clock's ms, one handled after it
# the second's start, so it sorted before those that came earlier.
# `wachat history` lists the 40 in the order they were sent.  TAP.
# Every wait is bounded; wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
D="$tmp/data"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$D" \
    --qr-file "$tmp/qr" --log-file "$tmp/log" </dev/null >"$tmp/w" 2>&1 &
wpid=$!
bg_pids="$bg_pids $wpid"
wait_grep "$tmp/qr" 'https://' 300
ctl scan-qr "$(cat "$tmp/qr")" >/dev/null 2>&1
check "wachat links and connects" wait_grep "$tmp/w" "^connected as \\+$A\$" 300 ||
    diag "$tmp/w"
wait_grep "$tmp/log" 'prekeys: event 6, [0-9]+ keys' 300
check "the sim's clock is set half a second behind" \
    sh -c "'$SIM' ctl --admin '$ADMIN' knobs clock_ms=-500 | grep -q '\"clock_ms\":-500'"
# Paced a little, so that the burst spans more than one second.
i=1
while [ "$i" -le 40 ]; do
	ctl phone-send $B $AJ "burst $i" >/dev/null 2>&1
	sleep 0.05
	i=$((i + 1))
done
check "all 40 arrive" wait_grep "$tmp/w" 'from .*: burst 40$' 300 ||
    diag "$tmp/w"
for i in $(seq 1 39); do
	wait_grep "$tmp/w" "from .*: burst $i\$" 100
done
"$W" history --data-dir "$D" +$B --limit 0 >"$tmp/hist" 2>&1
sed -n 's/.*: burst \([0-9]*\)$/\1/p' "$tmp/hist" >"$tmp/order"
seq 1 40 >"$tmp/want"
check "wachat history lists them in the order they were sent" \
    cmp -s "$tmp/order" "$tmp/want" || { echo "# got: $(tr '\n' ' ' <"$tmp/order")"; }
check "wachat runs on" kill -0 "$wpid"
wait_pid "$wpid" 1
sim_stop
finish_tap
