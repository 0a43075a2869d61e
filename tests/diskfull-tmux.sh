#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A full disk (issue 15, point 7): wachat in a detached 100x30 tmux pane
# against wachat-sim, linked as alice, with tests/fakes/enospc-preload.so
# preloaded: while $tmp/full exists every write to a file of its data dir
# fails with ENOSPC.  With the disk full, bob's phone sends N messages:
# the status line says "disk full: ..." with the data dir, none of them
# shows, and the sim still holds them for alice's device, unacked; a text
# typed and sent meanwhile is refused ("not sent: disk full") and stays in
# the input.  The file goes: wachat finds room by itself, connects again
# and the sim redelivers them: all N show, once each, in order, and
# `wachat history` lists them once each, in order; the text kept in the
# input is sent and reaches bob's phone once.  TAP.  Every wait is
# bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
SHIM="$b/tests/fakes/enospc-preload.so"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
N=5

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if [ ! -f "$SHIM" ]; then
	echo "Bail out! $SHIM is not built"
	exit 1
fi

# The pane's command: the shim preloaded (ASan: its link order check off
# for a preloaded library), wachat's pid to $tmp/pid.
cat >"$tmp/run.sh" <<RUN
#!/bin/sh
echo \$\$ >'$tmp/pid'
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME'
export LD_PRELOAD='$SHIM' ENOSPC_CONTROL='$tmp/full' ENOSPC_DIR='$tmp/data'
export ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}verify_asan_link_order=0"
exec '$W' --url "\$1" --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'
RUN

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 600
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A" 200
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 600

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob' 150
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}' 100
failed_now && show

# unacked: the sim's messages from bob to alice's companion (device 1)
# that it still holds (not acked).
unacked() {
	ctl messages 2>/dev/null | grep -o '{[^{}]*"kind":"message"[^{}]*}' |
	    grep "\"to\":\"$A:1@s.whatsapp.net\"" | grep -c '"acked":false'
}

unacked_at_least() {
	[ "$(unacked)" -ge "$1" ]
}
unacked_none() {
	[ "$(unacked)" -eq 0 ]
}

# kept_in_inbox: how many times bob's phone decrypted the kept text.
kept_in_inbox() {
	ctl phone-inbox $B 2>/dev/null | grep -o '"text":"kept while full"' |
	    wc -l
}
kept_arrived() {
	[ "$(kept_in_inbox)" -ge 1 ]
}

# pane_lines TEXT: how many lines of the message pane hold TEXT.
pane_lines() {
	sed -n 's/^[^│]*│//p' "$tmp/pane" | grep -c -F "$1"
}

# --- the disk fills up
: >"$tmp/full"
i=1
while [ "$i" -le "$N" ]; do
	ctl phone-send $B $AJ "while full $i" >/dev/null 2>&1
	i=$((i + 1))
done
check "the status line says the disk is full, naming the data dir" \
    wait_pane "disk full: .*$tmp/data" 300
failed_now && show
wait_cmd 600 unacked_at_least "$N"
check "the sim holds all $N messages for alice's device, unacked ($(unacked))" \
    unacked_at_least "$N"
capture
shown=0
i=1
while [ "$i" -le "$N" ]; do
	[ "$(pane_lines "while full $i")" -gt 0 ] && shown=$((shown + 1))
	i=$((i + 1))
done
check "none of them shows on the screen ($shown shown)" [ "$shown" -eq 0 ]
failed_now && show

# A send while the disk is full: refused with the reason, kept.
tm send-keys -t wachat -l "kept while full"
check "a text typed while full shows in the input line" \
    wait_pane "> kept while full" 50
tm send-keys -t wachat Enter
check "Enter says it is not sent: disk full" wait_pane "not sent: disk full" 50
check "... and the text stays in the input line" \
    wait_pane "> kept while full" 20
failed_now && show

# --- room again
rm -f "$tmp/full"
check "with room again wachat connects by itself" \
    wait_pane "connected as .*\\+$A" 300
failed_now && show
check "the last of the $N messages shows" wait_pane "while full $N" 300
sleep 1
capture
order=$(sed -n 's/^[^│]*│//p' "$tmp/pane" | grep -o 'while full [0-9]*' |
    tr '\n' ' ')
want=$(i=1; while [ "$i" -le "$N" ]; do printf 'while full %d ' "$i";
    i=$((i + 1)); done)
check "all $N show, once each, in order (pane: $order)" [ "$order" = "$want" ]
failed_now && show
wait_cmd 600 unacked_none
check "the sim has none of them left unacked ($(unacked) left)" unacked_none

# The kept text goes now.
tm send-keys -t wachat Enter
check "the kept text is sent now" wait_cmd 600 kept_arrived
sleep 1
n_kept=$(kept_in_inbox)
check "... and reaches bob's phone once ($n_kept)" [ "$n_kept" -eq 1 ]

pid=$(cat "$tmp/pid" 2>/dev/null)
tm send-keys -t wachat C-q
i=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "Ctrl-q quits wachat" sh -c "! kill -0 '${pid:-0}' 2>/dev/null"
"$W" --data-dir "$tmp/data" history "+$B" >"$tmp/history" 2>"$tmp/h.err"
horder=$(grep -o 'while full [0-9]*' "$tmp/history" | tr '\n' ' ')
check "wachat history lists the $N once each, in order ($horder)" \
    [ "$horder" = "$want" ]
failed_now && diag "$tmp/history" && diag "$tmp/h.err"
tm kill-server >/dev/null 2>&1

finish_sim_tmux
