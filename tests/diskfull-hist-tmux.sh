#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A full disk during history sync (issue 15, point 7): wachat in a
# detached 100x30 tmux pane, linked over wss to wachat-sim, with
# tests/fakes/enospc-preload.so preloaded (while $tmp/full exists every
# write to a file of its data dir fails with ENOSPC).  Linked, the phone
# sends a history of several chunks, whose downloads the sim's media host
# holds back; every notification is taken (acked, queued) before the disk
# fills.  With the disk full, the imports fail: the status line says
# "disk full: ..." with the data dir, and no hist_sync receipt reaches
# the sim for a chunk not stored.  The file goes: wachat finds room by
# itself, connects again, imports every chunk and receipts each; after
# it quits, the database holds every message of the phone's history
# exactly once.  TAP.  Every wait is bounded; tmux, wachat and the sim
# are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
SHIM="$b/tests/fakes/enospc-preload.so"
A=15550000001
CHATS=4
MSGS=80

for c in openssl sqlite3; do
	if ! command -v $c >/dev/null 2>&1; then
		echo "Bail out! the $c command is not installed"
		exit 1
	fi
done
. "${top_srcdir:-.}/tests/tmux-lib.sh"
if [ ! -f "$SHIM" ]; then
	echo "Bail out! $SHIM is not built"
	exit 1
fi
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi

cat >"$tmp/run.sh" <<RUN
#!/bin/sh
echo \$\$ >'$tmp/pid'
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME'
export LD_PRELOAD='$SHIM' ENOSPC_CONTROL='$tmp/full' ENOSPC_DIR='$tmp/data'
export ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}verify_asan_link_order=0"
exec '$W' --url "\$1" --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'
RUN

if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 150
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A" 300
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 300

# hstat FIELD: a number of the sim's history status.
hstat() {
	ctl history-status 2>/dev/null |
	    sed -n "s/.*\"$1\":\\([0-9]*\\).*/\\1/p"
}
# peer_msgs [acked]: the sim's messages to alice's companion (device 1),
# all or those acked.
peer_msgs() {
	ctl messages 2>/dev/null | grep -o '{[^{}]*"kind":"message"[^{}]*}' |
	    grep "\"to\":\"$A:1@s.whatsapp.net\"" |
	    grep -c "${1:+\"acked\":true}"
}
all_taken() {
	[ "$(peer_msgs)" -ge "$chunks" ] && [ "$(peer_msgs acked)" -eq \
	    "$(peer_msgs)" ]
}
receipts_at_least() {
	[ "$(hstat hist_sync_receipts)" -ge "$1" ]
}

# The phone's history, in chunks of 20 messages; each download waits 3 s
# (the media host's HTTP server gives up on a wait of 5 s), one after the
# other, so most are still to come when the disk fills.
ctl history-set $A $CHATS $MSGS 7 20 >"$tmp/hist.json" 2>&1
ctl history-media-delay 3000 >/dev/null 2>&1
ctl history-send $A >"$tmp/send.json" 2>&1
chunks=$(hstat chunks_sent)
check "the phone sends its history in several chunks (${chunks:-none})" \
    [ "${chunks:-0}" -ge 3 ]
check "wachat takes every notification (acked)" wait_cmd 300 all_taken

# --- the disk fills up while the chunks download
: >"$tmp/full"
check "the status line says the disk is full, naming the data dir" \
    wait_pane "disk full: .*$tmp/data" 300
failed_now && show
r1=$(hstat hist_sync_receipts)
check "chunks are left to import when it says so ($r1 of $chunks receipted)" \
    [ "${r1:-0}" -lt "$chunks" ]
# Offline now: nothing more may be receipted.  What is checked is that
# something does not happen, so there is nothing to wait for: look again
# after longer than a download takes (3 s) for a receipt that would come.
sleep 4
r2=$(hstat hist_sync_receipts)
check "no chunk receipted while the disk is full ($r1, then $r2)" \
    [ "${r2:-x}" = "$r1" ]
ctl history-media-delay 0 >/dev/null 2>&1

# --- room again
rm -f "$tmp/full"
check "with room again the disk full line goes" wait_gone "disk full" 300
check "... and wachat connects by itself" \
    wait_pane "connected as .*\\+$A" 300
failed_now && show
wait_cmd 600 receipts_at_least "$chunks"
r3=$(hstat hist_sync_receipts)
check "every chunk is imported and receipted ($r3 of $chunks)" \
    [ "${r3:-0}" -ge "$chunks" ]
failed_now && show

pid=$(cat "$tmp/pid" 2>/dev/null)
tm send-keys -t wachat C-q
i=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "Ctrl-q quits wachat" sh -c "! kill -0 '${pid:-0}' 2>/dev/null"
cnt=$(sqlite3 "$tmp/data/wachat.db" \
    'SELECT count(*), count(DISTINCT chat || id) FROM message' 2>&1)
check "the database holds all $MSGS messages of the history, each once ($cnt)" \
    [ "$cnt" = "$MSGS|$MSGS" ]
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
