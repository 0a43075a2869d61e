#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The disk fills under a running wachat beyond the receive path (issue 15,
# point 7, "the same class elsewhere"): wachat in a detached 100x30 tmux
# pane against wachat-sim, linked as alice, with
# tests/fakes/enospc-preload.so preloaded (while $tmp/full exists every
# write to a file of its data dir fails with ENOSPC).
#  1. A group change (w:gp2 subject notification) that comes while the
#     disk is full is not acked: the status line says "disk full", the sim
#     still holds the notification for alice's device; with room again it
#     comes back, and the list shows the group by its new subject.
#  2. A text typed and sent in the instant the disk fills, before wachat
#     knows it, is refused ("not sent: disk full") and comes back to the
#     input line; with room again Enter sends it, and bob's phone has it
#     once.
# TAP.  Every wait is bounded; tmux, wachat and the sim are killed at the
# end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
SHIM="$b/tests/fakes/enospc-preload.so"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if [ ! -f "$SHIM" ]; then
	echo "Bail out! $SHIM is not built"
	exit 1
fi

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

ctl group-create "Old walkers" --creator $B $A sim:2 >"$tmp/g.json" 2>&1
G=$(sed -n 's/.*"jid":"\([0-9]*@g\.us\)".*/\1/p' "$tmp/g.json" | head -n 1)
check "the sim makes a group with alice in it" [ -n "$G" ]
check "the group shows in the list" wait_pane 'Old walkers' 150
failed_now && { show; diag "$tmp/g.json"; }
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob' 150
failed_now && show

# gp_unacked: the sim's w:gp2 notifications for alice's companion
# (device 1, by number or LID) that it still holds (not acked).
gp_unacked() {
	ctl messages 2>/dev/null | grep -o '{[^{}]*"kind":"notification"[^{}]*}' |
	    grep '"type":"w:gp2"' |
	    grep -E "\"to\":\"($A|100000000000001):1@" |
	    grep -c '"acked":false'
}
gp_held() {
	[ "$(gp_unacked)" -ge 1 ]
}
gp_none() {
	[ "$(gp_unacked)" -eq 0 ]
}

# --- 1. a group change while the disk is full
: >"$tmp/full"
ctl group-subject "$G" "Full walkers" >"$tmp/gs.json" 2>&1
check "after a group change the status line says the disk is full" \
    wait_pane "disk full: .*$tmp/data" 300
failed_now && { show; diag "$tmp/gs.json"; }
wait_cmd 600 gp_held
check "the sim holds the group notification for alice's device, unacked" \
    gp_held
check "... and the list still shows the old subject" \
    grep -q 'Old walkers' "$tmp/pane"
rm -f "$tmp/full"
check "with room again wachat connects by itself" \
    wait_pane "connected as .*\\+$A" 300
check "the group change comes again: its line shows in the list" \
    wait_pane 'changed the subject to "Ful' 300
failed_now && show
wait_cmd 600 gp_none
check "the sim has the notification acked now" gp_none

# --- 2. a send in the instant the disk fills
# Open bob's chat: Tab goes from chat to chat.
tabs=0
while [ "$tabs" -lt 4 ]; do
	tm send-keys -t wachat Tab
	wait_pane 'Chats +│ bob' 30 && break
	tabs=$((tabs + 1))
done
check "bob's chat is open" wait_pane 'Chats +│ bob' 100
failed_now && show
: >"$tmp/full"
tm send-keys -t wachat -l "typed at the edge"
tm send-keys -t wachat Enter
check "the send is refused: the screen says the disk is full" \
    wait_pane "not sent: disk full|disk full: .*$tmp/data" 200
check "... and the text is back in the input line" \
    wait_pane "> typed at the edge" 100
failed_now && show
rm -f "$tmp/full"
check "with room again wachat connects by itself" \
    wait_pane "connected as .*\\+$A" 300
failed_now && show

edge_in_inbox() {
	ctl phone-inbox $B 2>/dev/null | grep -o '"text":"typed at the edge"' |
	    wc -l
}
edge_arrived() {
	[ "$(edge_in_inbox)" -ge 1 ]
}
tm send-keys -t wachat Enter
check "Enter sends the text that came back" wait_cmd 600 edge_arrived
sleep 1
n_edge=$(edge_in_inbox)
check "... and bob's phone has it once ($n_edge)" [ "$n_edge" -eq 1 ]

pid=$(cat "$tmp/pid" 2>/dev/null)
tm send-keys -t wachat C-q
i=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "Ctrl-q quits wachat" sh -c "! kill -0 '${pid:-0}' 2>/dev/null"
tm kill-server >/dev/null 2>&1

finish_sim_tmux
