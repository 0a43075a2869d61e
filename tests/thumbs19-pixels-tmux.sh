#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Thumbnails the terminal draws (issue 19, thumbnail-protocol): wachat in
# a 100x30 tmux pane against wachat-sim, linked as alice; bob's phone
# sends a photo with a 64x32 JPEG thumbnail (cjpeg).  What wachat writes
# to its terminal is read before tmux takes it (pipe-pane -O): with
# --thumbnail-protocol kitty, opening bob's chat writes kitty's graphics
# command (a=T, 24 columns by 6 rows) at the cell under the photo's line,
# where the pane keeps 6 blank rows before bob's next message; closing the
# chat (Tab to another) deletes the placements (a=d).  With sixel, a sixel
# image (DCS ... q) is written at the same cell; with halfblocks, no image
# sequence at all.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
C=15550000004
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
ctl contact $C 100000000000004 carol $A >/dev/null 2>&1
check "the test's JPEG is made" make_thumb

# written REGEX: what wachat wrote to its terminal ($tmp/out) matches the
# Python regular expression REGEX (bytes; \x1b for Esc).
written() {
	python3 -c '
import re, sys
data = open(sys.argv[1], "rb").read()
sys.exit(0 if re.search(sys.argv[2].encode(), data, re.S) else 1)' \
	    "$tmp/out" "$1" 2>/dev/null
}

wait_written() {
	wait_cmd "$WAIT" written "$1"
}

# at: the cursor position (1-based "Y;X") of the cell under the photo's
# icon, from a capture of the pane (the pane is the whole window).
at() {
	capture
	python3 -c '
import sys, unicodedata
for y, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    if "Photo \u00b7 46 KB" in line:
        col = 0
        for c in line[:line.index("\U0001f4f7")]:
            col += 2 if unicodedata.east_asian_width(c) in "WF" else 1
        print("%d;%d" % (y + 2, col + 1))
        break' "$tmp/pane"
}

# blank_rows: in a capture of the pane, the 6 rows under the photo's line
# are blank from its icon's column on, and the next holds bob's header.
blank_rows() {
	capture
	python3 -c '
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
for y, line in enumerate(lines):
    if "Photo \u00b7 46 KB" in line:
        x = line.index("\U0001f4f7")
        ok = all(lines[y + k][x:].strip() == "" for k in range(1, 7))
        sys.exit(0 if ok and "bob " in lines[y + 7] else 1)
sys.exit(1)' "$tmp/pane"
}

# phase PROTOCOL: wachat started with --thumbnail-protocol PROTOCOL, what
# it writes piped to $tmp/out, bob's chat opened.
phase() {
	: >"$tmp/out"
	start_pane --thumbnail-protocol "$1"
	tm pipe-pane -O -t wachat "cat >>'$tmp/out'"
	wait_pane 'bob' >/dev/null
	tm send-keys -t wachat Tab
	check "$1: bob's chat shows the photo's line" \
	    wait_pane 'Photo · 46 KB · 640×320'
}

quit() {
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
	tm kill-server >/dev/null 2>&1
}

start_pane
link_and_connect
# carol's first, so that bob's chat is the newest (Tab opens it)
ctl phone-send $C $AJ "carol says hi" >/dev/null 2>&1
check "carol's message comes in" wait_pane 'carol says hi'
media "\"media\":\"image\",\"width\":640,\"height\":320,\"size\":45678,\"thumbnail\":\"$tmp/t.jpg\""
ctl phone-send $B $AJ "after the photo" >/dev/null 2>&1
check "bob's photo and message come in" wait_pane 'after the photo'
quit

phase kitty
pos=$(at)
check "kitty: the image under the photo's line, 24 by 6 cells" \
    wait_written "\\x1b\\[$pos""H\\x1b_Ga=T,[^\\x1b]*c=24,r=6"
check "kitty: 6 blank rows, then bob's next message" wait_cmd "$WAIT" blank_rows
: >"$tmp/out"
tm send-keys -t wachat Tab
check "kitty: another chat open, the placements are deleted" \
    wait_written '\x1b_Ga=d,d=A'
failed_now && show
quit

phase sixel
pos=$(at)
check "sixel: a sixel image under the photo's line" \
    wait_written "\\x1b\\[$pos""H\\x1bP[0-9;]*q"
quit

phase halfblocks
check "halfblocks: the red cells under the photo's line" \
    wait_written '\x1b\[(38|48);5;196m'
check "... and no image sequence" eval '! written "\x1b_G|\x1bP[0-9;]*q|\x1b\]1337;"'
quit

finish_sim_tmux
