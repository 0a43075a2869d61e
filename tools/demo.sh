#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The demo: set everything up, build, start the bundled local network
# (wachat-sim on free loopback ports, an account with a few simulated
# contacts) and run wachat against it in this terminal.  The QR appears
# first; a few seconds later the simulated phone scans it (it reads the
# QR's text from the file wachat writes for that purpose, --qr-file) and
# wachat shows itself linked and connected.  Quit wachat with Ctrl-q (q
# before linking): the sim stops too, and the temporary folder that held
# everything (wachat's settings, data and log, the sim's log) is removed.  Nothing is written
# outside it: the demo never touches a real wachat profile.  TERM, INT or
# HUP sent to the demo stop wachat and the sim the same way; no process
# of the demo outlives it.  The set-up (tools/setup.sh --demo: no Node,
# no npm, no test tools) writes its output to build/setup.log; when it
# fails, the demo shows the failing step and its last lines.
#
# Environment: WACHAT_BUILD_DIR, a build directory that already holds
# wachat and wachat-sim, skips the set-up (the tests use it);
# WACHAT_DEMO_SCAN_DELAY, seconds the QR stays before the phone scans it
# (default 5).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-demo.XXXXXX")
sim=
admin=
sim_pid=
phone_pid=
wachat_pid=
# Everything the demo started stops, wachat first (it gives the terminal
# back), then the phone and the sim; then the folder goes.
stop() {
	set +e
	if [ -n "$wachat_pid" ]; then
		kill -TERM "$wachat_pid" 2>/dev/null
		wait "$wachat_pid" 2>/dev/null
	fi
	[ -n "$phone_pid" ] && kill -TERM "$phone_pid" 2>/dev/null
	if [ -n "$sim_pid" ]; then
		"$sim" ctl --admin "$admin" shutdown >/dev/null 2>&1 ||
			kill "$sim_pid" 2>/dev/null
		i=0
		while kill -0 "$sim_pid" 2>/dev/null && [ "$i" -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill "$sim_pid" 2>/dev/null
		wait "$sim_pid" 2>/dev/null
	fi
	[ -n "$phone_pid" ] && wait "$phone_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${WACHAT_BUILD_DIR:-}" ]; then
	b=$(cd "$WACHAT_BUILD_DIR" && pwd)
else
	# Only what the demo needs (no Node, no test tools); the set-up's
	# own output (apt-get, autogen, configure, make) goes to its log
	# build/setup.log; its steps, and the end of a step that fails, are
	# shown only when it fails.
	echo "demo: setting up and building (the first time takes a few minutes)…"
	if ! sh "$top/tools/setup.sh" --demo >/dev/null 2>"$tmp/setup.err"; then
		cat "$tmp/setup.err" >&2
		echo "demo: the set-up failed (above: its steps and the end of the one that failed)" >&2
		exit 1
	fi
	b=$top/build
fi
sim=$b/tests/sim/wachat-sim
root=$(sed -n 's/^public=//p' "$top/tests/sim/root-key.txt")
delay=${WACHAT_DEMO_SCAN_DELAY:-5}
PN=15550000001

# wachat's whole world lives in the temporary folder.
HOME=$tmp/home
XDG_CONFIG_HOME=$HOME/.config
XDG_DATA_HOME=$HOME/.local/share
XDG_STATE_HOME=$HOME/.local/state
XDG_CACHE_HOME=$HOME/.cache
export HOME XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
mkdir -m 700 "$HOME"

# The local network: ports chosen by the kernel, on 127.0.0.1 only, over
# TLS with a certificate made here (wachat trusts it by --ca-file, as it
# would an extra CA), also for the media host the history comes from.
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "demo: cannot make the local network's certificate:" >&2
	cat "$tmp/openssl.log" >&2
	exit 1
fi
mkdir "$tmp/media"
"$sim" --port 0 --admin-port 0 --media-port 0 --log "$tmp/sim.log" \
    --media-dir "$tmp/media" --tls-cert "$tmp/cert.pem" \
    --tls-key "$tmp/key.pem" >"$tmp/sim.out" 2>"$tmp/sim.err" &
sim_pid=$!
i=0
while ! grep -q '^admin-port=' "$tmp/sim.out" 2>/dev/null; do
	i=$((i + 1))
	if [ "$i" -gt 100 ] || ! kill -0 "$sim_pid" 2>/dev/null; then
		echo "demo: wachat-sim did not start:" >&2
		cat "$tmp/sim.err" >&2
		exit 1
	fi
	sleep 0.1
done
port=$(sed -n 's/^port=//p' "$tmp/sim.out")
admin=http://127.0.0.1:$(sed -n 's/^admin-port=//p' "$tmp/sim.out")
ctl() { "$sim" ctl --admin "$admin" "$@" >/dev/null; }

# The account wachat links to, and the people in its address book.
ctl account $PN 100000000000001 "Demo User"
ctl contact 15550000002 100000000000002 "Echo" $PN
ctl contact 15550000003 100000000000003 "Alice" $PN --chatty 45
ctl contact 15550000004 100000000000004 "Bob" $PN
# The phone's history of years of chats, sent to wachat once linked.
ctl history-set $PN 40 3000 1
# The phone's app state (tests/sim/README.md), shared with wachat once
# linked: its address book holds every contact (made above); chatty
# Alice is muted for good, Bob for 8 hours, Echo pinned, and the oldest
# chat of the history archived.
ctl appstate-mute $PN 15550000003@s.whatsapp.net always
ctl appstate-mute $PN 15550000004@s.whatsapp.net +28800
ctl appstate-pin $PN 15550000002@s.whatsapp.net on
ctl appstate-archive $PN 15557000032@s.whatsapp.net on

# The media the contacts send (tests/sim/README.md, media): a photo and
# its thumbnail (cjpeg), a voice note (opusenc), a sticker (cwebp), made
# here from pixels and samples awk writes; a document the sim makes.
# ppm W H FILE: a sky-to-green gradient.
ppm() {
	LC_ALL=C awk -v w="$1" -v h="$2" 'BEGIN {
		printf "P6\n%d %d\n255\n", w, h
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				printf "%c%c%c", 40 + int(100 * y / h),
				    90 + int(120 * y / h),
				    220 - int(150 * y / h - 30 * x / w)
	}' >"$3"
}
media=no
if command -v cjpeg >/dev/null && command -v opusenc >/dev/null &&
    command -v cwebp >/dev/null; then
	ppm 320 240 "$tmp/photo.ppm" && ppm 32 24 "$tmp/thumb.ppm" &&
	    ppm 128 128 "$tmp/sticker.ppm" &&
	    cjpeg -quality 85 "$tmp/photo.ppm" >"$tmp/photo.jpg" &&
	    cjpeg -quality 50 "$tmp/thumb.ppm" >"$tmp/thumb.jpg" &&
	    cwebp -quiet "$tmp/sticker.ppm" -o "$tmp/sticker.webp" &&
	    LC_ALL=C awk 'BEGIN { for (i = 0; i < 48000; i++) {
		v = int(8000 * sin(6.2832 * 300 * i / 16000) * sin(3.1416 * i / 48000))
		if (v < 0) v += 65536
		printf "%c%c", v % 256, int(v / 256) } }' >"$tmp/voice.raw" &&
	    opusenc --quiet --raw --raw-rate 16000 --raw-chan 1 \
	    "$tmp/voice.raw" "$tmp/voice.ogg" && media=yes
fi

# Bob's video from the hike: 4 seconds of ffmpeg's test picture with a
# tone, and its first frame as the thumbnail (as a phone makes it).
video=no
if command -v ffmpeg >/dev/null; then
	ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=s=320x240:d=4 \
	    -f lavfi -i sine=f=330:d=4 -c:v libx264 -pix_fmt yuv420p \
	    -c:a aac "$tmp/clip.mp4" >/dev/null 2>&1 &&
	    ffmpeg -nostdin -loglevel error -i "$tmp/clip.mp4" -frames:v 1 \
	    -vf scale=100:-2 "$tmp/clip.jpg" >/dev/null 2>&1 && video=yes
fi

# The phone: once the QR has been on screen for a few seconds, scan it.
# Each wait runs in the background so that TERM (the demo ending) stops
# it at once, and nothing of the phone outlives the demo.
(
	child=
	trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM
	run() { "$@" & child=$!; wait "$child"; child=; }
	i=0
	while [ ! -s "$tmp/qr" ] && [ "$i" -lt 600 ]; do
		run sleep 0.1
		i=$((i + 1))
	done
	run sleep "$delay"
	[ -s "$tmp/qr" ] || exit 0
	"$sim" ctl --admin "$admin" scan-qr - $PN <"$tmp/qr" >"$tmp/scan" \
	    2>&1 &
	child=$!
	wait "$child"
	# Once the new device's keys are up, Echo says hello: the chat list
	# then has a chat to open (Tab).
	i=0
	until "$sim" ctl --admin "$admin" device "$PN:1@s.whatsapp.net" \
	    2>/dev/null | grep -q '"uploads":[1-9]'; do
		i=$((i + 1))
		[ "$i" -gt 300 ] && exit 0
		run sleep 0.1
	done
	run "$sim" ctl --admin "$admin" phone-send 15550000002 \
	    "$PN@s.whatsapp.net" "Hi, I am Echo: write me anything and I \
will say it back." >/dev/null 2>&1
	# Bob shares a photo and a video, Alice a voice note and a sticker,
	# Echo a document.
	run sleep 2
	if [ "$media" = yes ]; then
		run "$sim" ctl --admin "$admin" media-send 15550000004 \
		    "$PN@s.whatsapp.net" image "$tmp/photo.jpg" --width 320 \
		    --height 240 --thumbnail "$tmp/thumb.jpg" \
		    --caption "The view from the top 🏔" >/dev/null 2>&1
		run "$sim" ctl --admin "$admin" media-send 15550000003 \
		    "$PN@s.whatsapp.net" audio "$tmp/voice.ogg" --seconds 3 \
		    >/dev/null 2>&1
		run "$sim" ctl --admin "$admin" media-send 15550000003 \
		    "$PN@s.whatsapp.net" sticker "$tmp/sticker.webp" \
		    --width 128 --height 128 >/dev/null 2>&1
	fi
	if [ "$video" = yes ]; then
		run "$sim" ctl --admin "$admin" media-send 15550000004 \
		    "$PN@s.whatsapp.net" video "$tmp/clip.mp4" --width 320 \
		    --height 240 --seconds 4 --thumbnail "$tmp/clip.jpg" \
		    --caption "On the way up 🎥" >/dev/null 2>&1
	fi
	run "$sim" ctl --admin "$admin" media-send 15550000002 \
	    "$PN@s.whatsapp.net" document --file_name "Route notes.pdf" \
	    --caption "Route notes for Saturday" >/dev/null 2>&1
	# Alice makes a group with Bob and you; Bob asks there.
	g=$("$sim" ctl --admin "$admin" group-create "Weekend hike ⛰" \
	    --creator 15550000003 15550000003 15550000004 $PN 2>/dev/null |
	    sed -n 's/.*"jid":"\([0-9]*@g\.us\)".*/\1/p' | head -n 1)
	[ -n "$g" ] || exit 0
	run sleep 2
	run "$sim" ctl --admin "$admin" phone-group-send 15550000004 "$g" \
	    "Who is in for Saturday? 🥾" >/dev/null 2>&1
) &
phone_pid=$!

# wachat runs in the background, its keys from this terminal, so that
# the demo's traps run when it gets TERM, INT or HUP (sh runs a trap only
# once the foreground command has ended); q ends wachat and then the demo.
exec 3<&0
"$b/wachat" --url "wss://127.0.0.1:$port/ws/chat" --root-key "$root" \
    --ca-file "$tmp/cert.pem" --version-url "$admin/sw.js" \
    --qr-file "$tmp/qr" <&3 3<&- &
wachat_pid=$!
exec 3<&-
status=0
wait "$wachat_pid" || status=$?
wachat_pid=
exit "$status"
