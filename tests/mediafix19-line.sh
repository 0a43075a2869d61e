#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Line mode (stdout not a terminal) says what a media message or a
# location is with the screen's words (issue 19): wachat against
# wachat-sim, its stdout a file, linked by the QR it prints; bob's phone
# sends a photo with a caption, a document without one and a location:
# each is one line, "Photo · SIZE · WxH · CAPTION", "Document Five.pdf ·
# SIZE · 1 page", "Location: NAME · ADDRESS · LAT, LON · URL", with no
# control character.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"

need cjpeg curl python3
. "${top_srcdir:-.}/tests/mediasend19-lib.sh"
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
media_jpeg "$tmp/photo.jpg"
check "the photo fixture is made" test -s "$tmp/photo.jpg"

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" --url "$URL" --root-key "$ROOT_PUB" \
    --data-dir "$tmp/data" --qr-file "$tmp/qr" >"$tmp/out" 2>"$tmp/err" &
wpid=$!
bg_pids="$bg_pids $wpid"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects (line mode)" \
    wait_grep "$tmp/out" "connected as \\+$A"
wait_grep "$HOME/.local/state/wachat/wachat.log" 'prekeys: event 6, [0-9]+ keys'

ctl media-send $B $AJ document --file_name Five.pdf >/dev/null 2>&1
check "a document without a caption: its name and size" \
    wait_grep "$tmp/out" '^from .*: Document Five\.pdf · [0-9]+ B · 1 page$'
ctl media-send $B $AJ image "$tmp/photo.jpg" \
    --width 64 --height 48 --caption "the beach" >"$tmp/s1" 2>&1
check "a photo: its kind, size and dimensions, then its caption" \
    wait_grep "$tmp/out" '^from .*: Photo · [0-9.]+ (B|KB) · 64×48 · the beach$'
curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",\"kind\":\"location\",\"lat\":52.516275,\"lon\":13.377704,\"name\":\"Brandenburger Tor\",\"address\":\"Pariser Platz\"}" \
    "$ADMIN/admin/mock-phone/send-kind" >/dev/null 2>&1
check "a location: its name, address, coordinates and link on one line" \
    wait_grep "$tmp/out" '^from .*: Location: Brandenburger Tor · Pariser Platz · 52\.51[0-9]*, 13\.37[0-9]* · https://www\.openstreetmap\.org/'
check "... and no line holds the raw record" no_line "$tmp/out" 'name=Brand'
check "no control character reaches stdout" \
    sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$tmp/out'"
[ "$failed" -gt 0 ] && { diag "$tmp/out"; diag "$tmp/s1"; }
kill -TERM "$wpid" 2>/dev/null
wait_for not_running "$wpid"
kill -KILL "$wpid" 2>/dev/null
wait "$wpid"
st=$?
check "SIGTERM stops it cleanly (status $st)" [ "$st" = 0 ]
sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
finish_tap
