#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat's media to an unmodified Baileys and back through wachat-sim
# (issue 19): a photo with a caption, a document, a video with a
# caption, a voice note (--ptt) and a sticker sent with wachat send
# --file reach Baileys with their fields (type, mimetype, dimensions,
# duration, the video's thumbnail, ptt, the 64-byte waveform, the file
# name), and its downloadMediaMessage gives each file's bytes; the other
# way, Baileys' photo with a caption, voice note, document, sticker,
# video, GIF and round video show in wachat's pane with their type word and metadata, and wachat's
# download key (Alt-w) fetches each with the same bytes
# (tests/sim-interop/wachat-media-baileys.mjs); Baileys' photo forwarded
# back to it with Alt-. (isForwarded, forwardingScore, the same
# directPath and mediaKey, the same bytes) and a text Baileys forwarded
# forwarded again, which Baileys reads (readMessages) and Alt-? shows
# with bob's delivery and read times (issue 20).  The fixtures are made
# here: a 64x48 JPEG with cjpeg and WebP with cwebp, a second of Ogg
# Opus with opusenc (its waveform from opusdec's samples), a one-page PDF with python3, a 3-second 320x240 MP4
# with ffmpeg (its thumbnail read back with djpeg).  Needs openssl,
# cjpeg, djpeg, cwebp, opusenc, opusdec, ffmpeg, python3, tmux, Node 20 and the
# packages of tests/interop (npm ci there).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
. "${top_srcdir:-.}/tests/mediasend19-lib.sh"
need openssl cjpeg djpeg cwebp opusenc opusdec ffmpeg python3 tmux
test_cert
fx=$tmp/fx
mkdir -p "$fx"
media_jpeg "$fx/photo.jpg"
media_pdf "$fx/notes.pdf"
media_webp "$fx/sticker.webp"
media_ogg "$fx/voice.ogg"
media_mp4 "$fx/clip.mp4"
media_waveform "$fx/voice.ogg" >"$fx/voice.wave"
for f in photo.jpg notes.pdf sticker.webp voice.ogg voice.wave clip.mp4; do
	check "the fixture $f is made" test -s "$fx/$f" || exit 1
done
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
SIM_MEDIA_FIXTURES=$fx
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS SIM_MEDIA_FIXTURES
sim_node_tap wachat-media-baileys.mjs
finish_tap
