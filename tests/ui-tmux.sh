#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The curses screen in a real terminal: wachat in a detached 100x40 tmux
# pane against wachat-sim.  The QR drawn in the pane, captured as text and
# turned back into an image, decodes (zbarimg) to the text of --qr-file;
# the pane says so when the window is too small for the QR and shows it
# again when it grows; the phone's scan links wachat, the pane shows the number and
# "connected", and the key q stops it cleanly (exit 0).  Restarted, it
# logs in with no QR.  In an 80x24 pane, too small for the QR, the key p
# asks for the phone number (typed with spaces, dashes and a '+') and the
# code shown links a second account.  Messages wrap whole at the window's
# width (60x20, and the exact size the screen says it needs, where the QR
# still decodes); a window too small for the panes says so; in a locale
# that is not UTF-8 the screen says why it draws no QR and p still works.
# TAP.
# Every wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001
need zbarimg
. "${top_srcdir:-.}/tests/tmux-lib.sh"

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

# qr_decodes FILE: a fresh capture of the pane holds a QR that zbarimg
# decodes to the text of FILE (the whole QR: a capture taken while it is
# drawn reads only its first rows); the capture stays in $tmp/pane.
qr_decodes() {
	capture
	qr_pgm "$tmp/pane" "$tmp/qr.pgm"
	zbarimg --raw -q "$tmp/qr.pgm" >"$tmp/decoded" 2>"$tmp/zbar.err"
	[ -s "$1" ] && [ "$(cat "$tmp/decoded")" = "$(cat "$1")" ]
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1

# pane COLS ROWS DATA-DIR [LOCALE]: wachat in a new detached tmux pane of
# that size, against the sim, with its data in DATA-DIR, in LOCALE
# (default C.UTF-8); the pane's shell keeps wachat's exit status in
# $tmp/status.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x "$1" -y "$2" \
	    "env LANG=${4:-C.UTF-8} LC_ALL=${4:-C.UTF-8} TERM=screen HOME='$HOME' \
	    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$3' \
	    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}

# quit_pane: press q, wait for wachat's exit status; 0 when clean.
quit_pane() {
	tm send-keys -t wachat C-q
	[ "$(exit_status)" = 0 ] && return 0
	capture
	diag "$tmp/pane"
	diag "$tmp/w.err"
	tail -20 "$HOME/.local/state/wachat/wachat.log" | sed 's/^/# /'
	return 1
}

pane 100 40 "$tmp/data"
check "tmux starts a 100x40 pane" wait_pane .

wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
check "the pane shows the QR and the time left" \
    wait_pane 'scan this QR code with your phone within [0-9]+ s'
check "the status line says it waits for the scan" \
    wait_pane 'waiting for the scan'
check "the QR drawn in the pane decodes to the text of --qr-file" \
    wait_for qr_decodes "$tmp/qr"
failed_now && { diag "$tmp/pane"; diag "$tmp/zbar.err"; }

# A window too small for the QR says so; the QR comes back when it grows.
tm resize-window -t wachat -x 60 -y 24
wait_size 60x24
check "a 60x24 window says it is too small for the QR" \
    wait_pane 'too small for the QR code'
[ $? -eq 0 ] || diag "$tmp/pane"
check "... and offers the phone number instead" \
    wait_pane 'press p to link with your phone number'
# 60x20: both messages whole, wrapped at word boundaries.
tm resize-window -t wachat -x 60 -y 20
wait_size 60x20
small='The window is too small for the QR code: it needs [0-9]+×[0-9]+, this is 60×20\.'
check "a 60x20 window shows the whole too-small message, wrapped" \
    wait_pane 'this is 60×20'
check "... the message reads whole across its rows" wait_joined_re "$small"
failed_now && diag "$tmp/pane"
check "... and so does the offer of the phone number" \
    wait_joined 'Enlarge it, or press p to link with your phone number.'
# The size it says it needs is enough: the QR shows whole, with its hint.
need=$(sed -n 's/.*it needs \([0-9]*\)×\([0-9]*\),.*/\1 \2/p' "$tmp/joined")
need_x=${need% *}
need_y=${need#* }
tm resize-window -t wachat -x "${need_x:-57}" -y "${need_y:-32}"
wait_size "${need_x:-57}x${need_y:-32}"
hint_re='scan this QR code with your phone within [0-9]+ s, or press p to link with your phone number'
check "at the size it said it needs (${need_x}x${need_y}) the QR shows, with the whole hint" \
    wait_pane 'scan this QR code with your phone'
check "... the hint reads whole across its rows" wait_joined_re "$hint_re"
failed_now && diag "$tmp/pane"
check "... and the QR drawn there decodes to the text of --qr-file" \
    wait_for qr_decodes "$tmp/qr"
failed_now && { diag "$tmp/pane"; diag "$tmp/zbar.err"; }
tm resize-window -t wachat -x 100 -y 40
wait_size 100x40
check "the QR comes back when the window grows again" \
    wait_pane 'scan this QR code with your phone within [0-9]+ s'
check "... whole: it decodes to the text of --qr-file again" \
    wait_for qr_decodes "$tmp/qr"
failed_now && { diag "$tmp/pane"; diag "$tmp/zbar.err"; }
# The QR as it is drawn now (its ref may have turned meanwhile).
qr=$(cat "$tmp/decoded" 2>/dev/null)
ctl scan-qr "$qr" >"$tmp/scan" 2>&1
check "the phone's scan of the decoded QR is accepted" \
    grep -q '"paired":true' "$tmp/scan"
check "the pane shows the linked number, connected" \
    wait_pane "connected as .*\\+$PN"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
check "... with the chat panes and the help line" \
    wait_pane 'q quit'

# A window too small for the panes shows the status and says so.
tm resize-window -t wachat -x 10 -y 5
wait_size 10x5
check "a 10x5 window shows only that it is too small" \
    wait_joined 'window too small'
check "... no pane or help line is drawn" eval '! grep -q "Chats\|q quit" "$tmp/pane"'
tm resize-window -t wachat -x 100 -y 40
wait_size 100x40
check "the panes come back when the window grows" wait_pane 'q quit'

check "the key q stops wachat cleanly: exit 0" quit_pane
check "libraries' stderr lines went to the log, not across the screen" \
    grep -q 'LWS:' "$LOG"
tm kill-server >/dev/null 2>&1

# Restarted, wachat logs in with what it stored: no QR.
rm -f "$tmp/qr"
pane 100 40 "$tmp/data"
check "restarted, wachat logs in without a QR: connected as +$PN" \
    wait_pane "connected as .*\\+$PN"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
no_qr() {
	[ ! -e "$tmp/qr" ] && ! grep -q 'scan this QR' "$tmp/pane"
}
check "... and no QR was drawn or written" no_qr
check "... q stops it cleanly again" quit_pane
tm kill-server >/dev/null 2>&1

# In 80x24 the QR does not fit: wachat says so, p asks for the phone
# number, and the code it shows links the second account.
PN2=15550000002
ctl account $PN2 100000000000002 bob >/dev/null 2>&1
pane 80 24 "$tmp/data2"
check "an 80x24 pane says the window is too small for the QR" \
    wait_pane 'too small for the QR code'
check "... and offers the phone number instead" \
    wait_pane 'press p to link with your phone number'
tm send-keys -t wachat p
check "p opens the phone-number prompt" \
    wait_pane 'Phone number with country code'
tm send-keys -t wachat -l "1234"
tm send-keys -t wachat Enter
check "Enter with too few digits says what a phone number is" \
    wait_joined 'a phone number has 5 to 20 digits, country code first'
check "... and keeps the prompt open" wait_pane 'country code: \+1234'
tm send-keys -t wachat BSpace BSpace BSpace BSpace
# As people write it: a '+', spaces, dashes; only the digits are taken.
tm send-keys -t wachat -l "+1 555-000-0002"
check "the prompt takes the digits of +1 555-000-0002" \
    wait_pane "country code: \\+$PN2\$"
[ $? -eq 0 ] || diag "$tmp/pane"
tm send-keys -t wachat Enter
check "the pane shows the code to enter on the phone" \
    wait_pane 'enter this code on your phone: [A-Z0-9]{4}-[A-Z0-9]{4}'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
code=$(sed -n 's/.*enter this code on your phone: \([A-Z0-9]\{4\}-[A-Z0-9]\{4\}\).*/\1/p' \
    "$tmp/pane" | head -n 1)
ctl enter-code "$code" "$PN2" >"$tmp/enter" 2>&1
check "the phone accepts the code read off the pane (${code:-none})" \
    [ $? -eq 0 -a -n "$code" ]
[ -n "$code" ] || diag "$tmp/pane"
check "the 80x24 pane shows the second account linked and connected" \
    wait_pane "connected as .*\\+$PN2"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
check "... q stops it cleanly" quit_pane
tm kill-server >/dev/null 2>&1

# In a locale that is not UTF-8 the half-block QR would be garbage: the
# screen says why there is none and what to do, and p still works.
pane 100 40 "$tmp/data3" C
check "in LC_ALL=C the screen says the locale is not UTF-8 and draws no QR" \
    wait_joined "this terminal's locale is not UTF-8, so the QR code cannot be drawn: run with LANG=C.UTF-8 (or another UTF-8 locale), or press p to link with your phone number"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
check "... no half block is on the screen" \
    eval '! LC_ALL=C grep -q "$(printf "\342\226")" "$tmp/pane"'
check "... the QR's text is still written to --qr-file" \
    wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
tm send-keys -t wachat p
check "... p opens the phone-number prompt" \
    wait_pane 'Phone number with country code'
tm send-keys -t wachat Escape
# Back means the prompt gone (a key sent while the Esc is still unread
# would reach wachat right behind it and read as Alt-key).
prompt_gone() {
	capture
	joined
	! grep -q 'Phone number with country code' "$tmp/pane" &&
	    grep -Fq "locale is not UTF-8" "$tmp/joined"
}
check "... Esc goes back" wait_for prompt_gone
check "... q stops it cleanly" quit_pane
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
