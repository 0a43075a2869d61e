#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The curses screen in a real terminal: wachat in a detached 100x40 tmux
# pane against wachat-sim.  The QR drawn in the pane, captured as text and
# turned back into an image, decodes (zbarimg) to the text of --qr-file;
# the pane says so when the window is too small for the QR and shows it
# again when it grows; the phone's scan links wachat, the pane shows the number and
# "connected", and the key q stops it cleanly (exit 0).  TAP.
# Every wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001
SOCK="$tmp/tmux.sock"

for t in tmux zbarimg; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "Bail out! $t is not installed"
		exit 1
	fi
done

HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME TMUX
mkdir -m 700 "$HOME"

tm() {
	tmux -u -S "$SOCK" -f /dev/null "$@"
}

trap 'tm kill-server >/dev/null 2>&1; cleanup' EXIT

# capture: the pane's text, in $tmp/pane.
capture() {
	tm capture-pane -p -t wachat >"$tmp/pane" 2>/dev/null
}

# wait_pane REGEX [TENTHS]: wait until the pane shows a line matching
# REGEX (default 10 s).
wait_pane() {
	i=0
	while [ "$i" -lt "${2:-100}" ]; do
		capture
		grep -Eq -- "$1" "$tmp/pane" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# qr_pgm TEXT PGM: the half-block QR in a captured pane as a PGM image,
# 4 pixels a module, with a light border of 4 modules.
qr_pgm() {
	LC_ALL=C sed -e 's/\xe2\x96\x80/T/g' -e 's/\xe2\x96\x84/B/g' \
	    -e 's/\xe2\x96\x88/F/g' "$1" | LC_ALL=C awk '
	/[TBF]/ {
		l[n++] = $0
		s = match($0, /[TBF]/)
		if (min == "" || s < min)
			min = s
		e = length($0)
		while (e > 0 && substr($0, e, 1) !~ /[TBF]/)
			e--
		if (e > max)
			max = e
	}
	END {
		S = 4; Q = 4
		w = max - min + 1
		W = (w + 2 * Q) * S
		H = (2 * n + 2 * Q) * S
		printf "P2\n%d %d\n255\n", W, H
		for (y = 0; y < 2 * n + 2 * Q; y++) {
			row = ""
			for (x = 0; x < w + 2 * Q; x++) {
				v = 255
				r = y - Q; c = x - Q
				if (r >= 0 && r < 2 * n && c >= 0 && c < w) {
					ch = substr(l[int(r / 2)], min + c, 1)
					if (ch == "F" || (ch == "T" && r % 2 == 0) ||
					    (ch == "B" && r % 2 == 1))
						v = 0
				}
				for (k = 0; k < S; k++)
					row = row v " "
			}
			for (k = 0; k < S; k++)
				print row
		}
	}' >"$2"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1

# The pane's shell runs wachat and keeps its exit status.
tm new-session -d -s wachat -x 100 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>'$tmp/w.err'; echo \$? >'$tmp/status'"
check "tmux starts a 100x40 pane" wait_pane . 50

wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 100
qr=$(cat "$tmp/qr" 2>/dev/null)
check "the pane shows the QR and the time left" \
    wait_pane 'scan this QR code with your phone within [0-9]+ s' 100
check "the status line says it waits for the scan" \
    grep -q 'waiting for the scan' "$tmp/pane"
qr_pgm "$tmp/pane" "$tmp/qr.pgm"

# A window too small for the QR says so; the QR comes back when it grows.
tm resize-window -t wachat -x 60 -y 24
check "a 60x24 window says it is too small for the QR" \
    wait_pane 'too small for the QR code' 50
[ $? -eq 0 ] || diag "$tmp/pane"
check "... and suggests --pair-phone" grep -q -e '--pair-phone' "$tmp/pane"
tm resize-window -t wachat -x 100 -y 40
check "the QR comes back when the window grows again" \
    wait_pane 'scan this QR code with your phone within [0-9]+ s' 50

zbarimg --raw -q "$tmp/qr.pgm" >"$tmp/decoded" 2>"$tmp/zbar.err"
check "the QR drawn in the pane decodes to the text of --qr-file" \
    [ -n "$qr" -a "$(cat "$tmp/decoded")" = "$qr" ]
[ "$(cat "$tmp/decoded")" = "$qr" ] || { diag "$tmp/pane"; diag "$tmp/zbar.err"; }

ctl scan-qr "$qr" >"$tmp/scan" 2>&1
check "the phone's scan of the decoded QR is accepted" \
    grep -q '"paired":true' "$tmp/scan"
check "the pane shows the linked number, connected" \
    wait_pane "connected as \\+$PN" 150
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
check "... with the chat panes and the help line" \
    grep -q 'q quit' "$tmp/pane"

tm send-keys -t wachat q
wait_grep "$tmp/status" . 100
check "the key q stops wachat cleanly: exit 0" \
    [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]
[ "$(cat "$tmp/status" 2>/dev/null)" = 0 ] || {
	capture
	diag "$tmp/pane"
	diag "$tmp/w.err"
	tail -20 "$HOME/.local/state/wachat/wachat.log" | sed 's/^/# /'
}
check "libraries' stderr lines went to the log, not across the screen" \
    grep -q 'LWS:' "$HOME/.local/state/wachat/wachat.log"
tm kill-server >/dev/null 2>&1

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
# Under the screen, wachat's stderr goes to its log.
log="$HOME/.local/state/wachat/wachat.log"
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err "$log" 2>/dev/null
then
	not_ok "no sanitizer report from wachat-sim or wachat"
	for f in "$tmp"/*.err "$log"; do
		diag "$f"
	done
else
	ok "no sanitizer report from wachat-sim or wachat"
fi
finish_tap
