#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Videos that come in (issue 19), in a real terminal: wachat in a 100x30
# tmux pane (TERM=screen-256color) against wachat-sim (TLS, its media
# host), linked as alice, bob's chat open.  Bob's phone sends a video
# (an MP4 ffmpeg makes here, 3 s, 320x240, its jpegThumbnail a 64x32
# JPEG red on its left half and blue on its right, POST /admin/media/send)
# with a caption: its line says "🎬 Video 0:03 · N KB · 320×240", 6 rows
# of red | blue half-blocks under it and the caption after them; the
# download key (Alt-w) fetches it and the file is the MP4 (SHA-256).
# Then a GIF (gifPlayback: "🎦 GIF 0:02 · … · 480×270"), a round video
# (ptvMessage: "🎥 Round video 0:07 · … · 240×240"), each with the
# thumbnail drawn the same, and an animated sticker ("Animated sticker ·
# 512×512").  Started again, the chat read back from the store shows the
# same lines and thumbnails.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

need openssl curl cjpeg ffmpeg
. "${top_srcdir:-.}/tests/tmux-lib.sh"
. "${top_srcdir:-.}/tests/thumbs19-lib.sh"
. "${top_srcdir:-.}/tests/mediasend19-lib.sh"
sim_start_tls
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
check "the test's thumbnail JPEG is made" make_thumb
check "the test's MP4 is made (ffmpeg)" media_mp4 "$tmp/clip.mp4"
MD=$tmp/m
S='[0-9.]+ (B|KB)'

# thumb_check DESC MARK ROWS [BELOW]: wait_thumb holds (else the cells
# seen are shown).
thumb_check() {
	tc_d=$1
	shift
	check "$tc_d" wait_thumb "$@" || diag "$tmp/cells.err"
}
# quit DESC: Ctrl-q ends wachat with status 0.
quit() {
	tm send-keys -t wachat C-q
	q_st=$(exit_status)
	check "$1 (status ${q_st:-none})" [ "$q_st" = 0 ]
}

start_pane --ca-file "$tmp/cert.pem" --download-dir "$MD"
link_and_connect
ctl phone-send $B $AJ "a clip for you" >/dev/null 2>&1
check "bob's text comes in" wait_pane 'a clip for you'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ +a clip for you$'

ctl media-send $B $AJ video "$tmp/clip.mp4" --width 320 --height 240 \
    --seconds 3 --thumbnail "$tmp/t.jpg" --caption "the trail" \
    >"$tmp/s" 2>&1
ID=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$tmp/s" | head -n 1)
check "bob's phone sends the video (id $ID)" test -n "$ID"
check "its line: the word, duration, size and dimensions" \
    wait_pane "│ +🎬 Video 0:03 · $S · 320×240\$"
thumb_check "... 6 rows of red | blue half-blocks under it, the caption after" \
    '🎬 Video 0:03' 6 'the trail'
failed_now && show
tm send-keys -t wachat Escape
sleep 0.3
tm send-keys -t wachat Up
sleep 0.3
tm send-keys -t wachat M-w
check "Alt-w downloads it: its line shows the path" \
    wait_pane "│ +$MD/video-$ID.mp4\$"
check "... the file is the MP4 (SHA-256)" test "$(sha256sum \
    <"$MD/video-$ID.mp4" 2>/dev/null)" = "$(sha256sum <"$tmp/clip.mp4")"
failed_now && show
tm send-keys -t wachat Escape

media "\"media\":\"gif\",\"width\":480,\"height\":270,\"seconds\":2,\"size\":12345,\"caption\":\"dancing\",\"thumbnail\":\"$tmp/t.jpg\""
check "a GIF: its word, duration, size and dimensions" \
    wait_pane '│ +🎦 GIF 0:02 · 12 KB · 480×270$'
thumb_check "... its thumbnail under it, the caption after" \
    '🎦 GIF 0:02' 6 'dancing'
media "\"media\":\"ptv\",\"width\":240,\"height\":240,\"seconds\":7,\"size\":54321,\"thumbnail\":\"$tmp/t.jpg\""
check "a round video: its word, duration, size and dimensions" \
    wait_pane '│ +🎥 Round video 0:07 · 54 KB · 240×240$'
thumb_check "... its thumbnail under it" '🎥 Round video 0:07' 6
media "\"media\":\"sticker\",\"animated\":true,\"width\":512,\"height\":512,\"size\":30000"
check "an animated sticker is said so" \
    wait_pane '│ +🌟 Animated sticker · 30 KB · 512×512$'
failed_now && show

quit "Ctrl-q quits"
tm kill-server >/dev/null 2>&1

start_pane --ca-file "$tmp/cert.pem" --download-dir "$MD"
check "started again" wait_pane 'bob'
tm send-keys -t wachat Tab
tm send-keys -t wachat End
check "... bob's chat from the store (End): the GIF, round video, sticker" \
    wait_panes '│ +🎦 GIF 0:02 · 12 KB · 480×270$' \
    '│ +🎥 Round video 0:07 · 54 KB · 240×240$' \
    '│ +🌟 Animated sticker · 30 KB · 512×512$'
thumb_check "... the GIF's thumbnail drawn again" '🎦 GIF 0:02' 6 \
    'dancing'
thumb_check "... the round video's thumbnail drawn again" \
    '🎥 Round video 0:07' 6
failed_now && show
quit "Ctrl-q quits again"

finish_sim_tmux
