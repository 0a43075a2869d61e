# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the thumbnail tests (tests/thumbs19-tmux.sh,
# tests/thumbs19-pixels-tmux.sh) after tests/sim-lib.sh and
# tests/tmux-lib.sh, with $B and $AJ set: the thumbnail they send and the
# route that sends it.

# $tmp/t.jpg: 64x32, red | blue, a baseline JPEG without chroma
# subsampling (so that the halves stay pure), made with cjpeg.
make_thumb() {
	python3 -c '
import sys
w, h = 64, 32
px = bytearray()
for y in range(h):
    for x in range(w):
        px += bytes((255, 0, 0) if x < w // 2 else (0, 0, 255))
sys.stdout.buffer.write(b"P6\n%d %d\n255\n" % (w, h) + bytes(px))' \
	    >"$tmp/t.ppm" &&
	    cjpeg -quality 95 -sample 1x1 -outfile "$tmp/t.jpg" "$tmp/t.ppm" &&
	    [ -s "$tmp/t.jpg" ]
}

# thumb MARK ROWS BELOW: the capture (with colours) shows ROWS rows of
# the red | blue thumbnail under the (last) line holding MARK, BELOW on
# the line after (tests/thumbs19-cells.py).
thumb() {
	tm capture-pane -e -N -p -t wachat >"$tmp/pane-e" 2>/dev/null
	python3 "${top_srcdir:-.}/tests/thumbs19-cells.py" "$tmp/pane-e" \
	    "$1" "$2" 24 196 21 "$3" 2>"$tmp/cells.err"
}

wait_thumb() {
	wait_cmd "$WAIT" thumb "$@"
}

# media JSON-MEMBERS: bob's phone sends us a media message (the sim's
# metadata-only route, tests/sim/phone-media-meta.c); its answer is
# appended to $tmp/sent.
media() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",$1}" \
	    "$ADMIN/admin/mock-phone/send-media" >>"$tmp/sent" 2>&1
}
