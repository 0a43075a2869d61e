#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A received photo's thumbnail in a real terminal (issue 19): wachat in a
# 100x30 tmux pane (TERM=screen-256color) against wachat-sim, linked as
# alice.  Bob's phone sends a photo whose jpegThumbnail is a 64x32 JPEG
# made here (cjpeg), red on its left half and blue on its right; in
# bob's chat, under the photo's line, 6 rows of 24 half-block cells show
# xterm's red (196) on the left and blue (21) on the right (read back
# with capture-pane -e), and bob's next message's header is the line
# right under them (the pane counts the thumbnail's rows).  Bigger
# (a 120x40 window) it is drawn again the same; a photo that comes in
# while the chat is open has its thumbnail between its line and its
# caption.  Started again with
# --thumbnail-rows 0, the photo's line has no thumbnail under it and the
# next message follows it at once.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
. "${top_srcdir:-.}/tests/thumbs19-lib.sh"
need curl cjpeg

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
check "the test's JPEG is made" make_thumb


start_pane
link_and_connect

media "\"media\":\"image\",\"width\":640,\"height\":320,\"size\":45678,\"thumbnail\":\"$tmp/t.jpg\""
check "the route sends the photo" grep -q '"id":"' "$tmp/sent"
ctl phone-send $B $AJ "after the photo" >/dev/null 2>&1
check "bob's message after it comes in" wait_pane 'after the photo'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "the photo's line" wait_pane 'Photo · 46 KB · 640×320'
check "6 rows of red | blue half-blocks under it, bob's next header after" \
    wait_thumb '📷 Photo · 46 KB' 6 'bob '
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"
check "... and the next message's text under that" \
    wait_joined 'after the photo'
failed_now && show

tm resize-window -t wachat -x 120 -y 40
check "a bigger window: the thumbnail is drawn again, the same" \
    wait_thumb '📷 Photo · 46 KB' 6 'bob '
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"

# One more while the chat is open (the live event, not a page): its
# thumbnail under it at the pane's bottom.
media "\"media\":\"image\",\"width\":640,\"height\":320,\"size\":2000,\"caption\":\"again\",\"thumbnail\":\"$tmp/t.jpg\""
check "a photo that comes in with the chat open" wait_pane '^ *│ +again$'
check "... has its thumbnail under its line, above its caption" \
    wait_thumb '📷 Photo · 2' 6 'again'
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

start_pane --thumbnail-rows 0
check "started again with --thumbnail-rows 0" wait_pane 'bob'
tm send-keys -t wachat Tab
check "... bob's chat shows the photo's line" \
    wait_pane 'Photo · 46 KB · 640×320'
check "... with no thumbnail under it: bob's next header at once" \
    wait_thumb '📷 Photo · 46 KB' 0 'bob '
[ -s "$tmp/cells.err" ] && diag "$tmp/cells.err"
failed_now && show

finish_sim_tmux
