#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A full disk at the link and at the prekey upload (issue 15, point 7):
# wachat in a detached 100x30 tmux pane against wachat-sim, with
# tests/fakes/enospc-preload.so preloaded (while $tmp/full exists every
# write to a file of its data dir fails with ENOSPC).
#  1. The QR is shown, the disk fills, the phone scans: the link cannot be
#     stored, so it is not signed back (the sim forgets the device),
#     the screen never says connected, and the status line says "disk
#     full: ..." with the data dir.  With room again a new QR comes by
#     itself, and a scan of it links.
#  2. Linked, the server hands out all but 2 of our prekeys and asks for
#     more while the disk is full: the new keys cannot be stored, so none
#     goes up (the sim's upload count stays), and the status line says
#     disk full.  With room again wachat connects by itself and uploads;
#     after it quits, every one-time prekey the sim holds for it is in
#     wachat's database, marked uploaded.
# TAP.  Every wait is bounded; tmux, wachat and the sim are killed at the
# end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
SHIM="$b/tests/fakes/enospc-preload.so"
A=15550000001

if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "Bail out! the sqlite3 command is not installed"
	exit 1
fi
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

# --- 1. the link, with the disk full
tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 150
qr1=$(cat "$tmp/qr" 2>/dev/null)
: >"$tmp/full"
ctl scan-qr "$qr1" $A >/dev/null 2>&1
check "the link cannot be stored: the status line says the disk is full" \
    wait_pane "disk full: .*$tmp/data" 300
failed_now && show
# (refused in words, or the connection closed before pair-device-sign:
# either way the server keeps no link)
nolink='pair-success refused by the companion'
nolink="$nolink|closed before pair-device-sign: device [0-9]+ forgotten"
check "... and the server keeps no link" wait_grep "$tmp/sim.log" "$nolink" 100
failed_now && diag "$tmp/sim.log"
capture
check "... and the screen does not say connected" \
    sh -c "! grep -q 'connected as' '$tmp/pane'"

new_qr() {
	grep -q 'https://wa\.me/settings/linked_devices#' "$tmp/qr" \
	    2>/dev/null && [ "$(cat "$tmp/qr")" != "$qr1" ]
}
rm -f "$tmp/full"
check "with room again a new QR comes by itself" wait_cmd 300 new_qr
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "... and a scan of it links and connects" \
    wait_pane "connected as .*\\+$A" 300
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 300
dev=$(sed -n 's/.*paired as device \([0-9]*\).*/\1/p' "$LOG" | tail -n 1)
DJ="$A:${dev:-1}@s.whatsapp.net"

# pk FIELD: a number of the sim's prekeys for our device.
pk() {
	ctl device "$DJ" 2>/dev/null | sed -n \
	    "s/.*\"prekeys\":{[^}]*\"$1\":\\([0-9]*\\).*/\\1/p"
}
uploads_at_least() {
	[ "$(pk uploads)" -ge "$1" ]
}
up1=$(pk uploads)
check "the sim holds our first upload (${up1:-none}, $(pk count) keys)" \
    [ "${up1:-0}" -ge 1 ]

# --- 2. the prekeys run low with the disk full
: >"$tmp/full"
ctl use-prekeys "$DJ" $(($(pk count) - 2)) >"$tmp/use.json" 2>&1
check "the server runs low and asks (its count: $(pk count))" \
    [ "$(pk count)" -eq 2 ]
check "the new keys cannot be stored: the status line says disk full" \
    wait_pane "disk full: .*$tmp/data" 300
failed_now && show
up2=$(pk uploads)
cnt2=$(pk count)
check "... and none goes up ($up2 uploads, $cnt2 keys)" \
    sh -c '[ "$1" -eq "$2" ] && [ "$3" -eq 2 ]' _ "$up2" "$up1" "$cnt2"

rm -f "$tmp/full"
check "with room again wachat connects by itself" \
    wait_pane "connected as .*\\+$A" 300
check "... and uploads new keys" wait_cmd 300 uploads_at_least $((up1 + 1))
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, 50 keys' 300

pid=$(cat "$tmp/pid" 2>/dev/null)
tm send-keys -t wachat C-q
i=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "Ctrl-q quits wachat" sh -c "! kill -0 '${pid:-0}' 2>/dev/null"
cnt=$(pk count)
first=$(pk first_id)
last=$(pk last_id)
held=$(sqlite3 "$tmp/data/wachat.db" "SELECT count(*) FROM prekey WHERE \
    uploaded = 1 AND id BETWEEN ${first:-0} AND ${last:-0}" 2>&1)
check "every prekey the sim holds ($cnt, ids $first-$last) is in the \
database ($held)" \
    sh -c '[ "$1" -gt 2 ] && [ "$2" = "$1" ]' _ "${cnt:-0}" "$held"
tm kill-server >/dev/null 2>&1

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err "$LOG" 2>/dev/null
then
	not_ok "no sanitizer report from wachat-sim or wachat"
	for f in "$tmp"/*.err "$LOG"; do
		diag "$f"
	done
else
	ok "no sanitizer report from wachat-sim or wachat"
fi
finish_tap
