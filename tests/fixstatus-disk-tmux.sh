#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The status line follows the engine's connection state while the disk is
# full (issue 15 point 7, a tester's finding): wachat in a detached tmux
# pane against wachat-sim, linked as alice, with
# tests/fakes/enospc-preload.so preloaded.  bob writes while there is room
# (his chat shows unread), the disk fills and bob writes again: the status
# line says "disk full".  Tab opens bob's chat, whose mark-read cannot be
# stored: the log says what was not done ("cannot mark the chat read:
# disk full") and the status line keeps saying "disk full" (what the
# screen does by itself as the user moves is not said over it), never
# "connected as" while wachat is offline.  Room again: "connected as".
# TAP; every wait is bounded.
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
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 150
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A" 200
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 150

ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's chat shows in the list" wait_pane 'hello from bob' 150

# The disk fills; bob writes again.
: >"$tmp/full"
ctl phone-send $B $AJ "while full" >/dev/null 2>&1
check "the status line says the disk is full" wait_pane "disk full: " 300
failed_now && show

tm send-keys -t wachat Tab
check "Tab's mark-read, refused, says what it could not do in the log" \
    wait_grep "$LOG" "cannot mark the chat read: disk full"
failed_now && show
capture
check "the status line still says 'disk full', not the refused mark-read" \
    sh -c "grep -q 'disk full: ' '$tmp/pane' &&
    ! grep -q 'cannot mark the chat read' '$tmp/pane'"
failed_now && show
check "no 'connected as' while offline for a full disk" \
    sh -c "! grep -q 'connected as' '$tmp/pane'"
failed_now && show

rm -f "$tmp/full"
check "with room again: connected as +$A" \
    wait_pane "connected as .*\\+$A" 300
failed_now && show

tm send-keys -t wachat C-q
wait_gone 'connected as' 100
tm kill-server >/dev/null 2>&1
finish_sim_tmux
