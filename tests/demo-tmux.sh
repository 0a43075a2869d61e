#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command, as a person runs it: tools/demo.sh in a
# 100x40 tmux pane (set-up skipped: WACHAT_BUILD_DIR names this build).
# The QR shows first, the simulated phone scans it, the pane shows the
# account linked and connected, and the contacts' media coming in, made
# by the demo (cjpeg, opusenc, cwebp, ffmpeg): Echo's document and
# Bob's video in the chat list, and, Tab opening each
# chat, Echo's document, Bob's photo with its caption and Alice's voice
# note and sticker with their metadata; q ends the demo with status 0, no process
# of the demo is left running (none in the pane's session, none naming
# its folder), the demo's temporary folder is gone and nothing was written
# to HOME.  The same when q comes before the phone scans, and when the
# demo's shell gets TERM while wachat runs.  Every wait is bounded.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
b=$(cd "$b" && pwd)
need pgrep pkill ps ffmpeg cjpeg opusenc cwebp
. "${top_srcdir:-.}/tests/tmux-lib.sh"
mkdir -m 700 "$tmp/t"

# Whatever of the demo is still running goes before the test's own
# folder (processes naming $tmp/t, the demo's TMPDIR).
tmux_before_cleanup() {
	pkill -f "$tmp/t/" 2>/dev/null
}

# none PGREP-ARG...: pgrep finds no such process; an error of pgrep's
# (exit 2 or 3) is not "none".
none() {
	pgrep "$@" >/dev/null 2>&1
	[ $? -eq 1 ]
}

# emptied DIR: DIR is there and empty.
emptied() {
	[ -d "$1" ] && [ -z "$(ls -A "$1")" ]
}

# demo DELAY: the demo in a new 100x40 pane, the phone scanning DELAY
# seconds after the QR shows; sets $sid, the pane's session (every process
# of the demo is in it), and clears $tmp/status, where the pane's shell
# puts the demo's exit status.
demo() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 40 \
	    "env HOME='$tmp/home' TMPDIR='$tmp/t' LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    TERM=screen WACHAT_BUILD_DIR='$b' WACHAT_DEMO_SCAN_DELAY=$1 \
	    sh '$s/tools/demo.sh' 2>'$tmp/demo.err'; echo \$? >'$tmp/status'"
	sid=$(tm display-message -p -t wachat '#{pane_pid}')
}

# nothing_left: no process is left in the demo's session, nor any naming
# its temporary folder.
nothing_left() {
	none -s "$sid" && none -f "$tmp/t/"
}

# gone: once the pane's shell has ended, no process is left in the demo's
# session, nor any naming its temporary folder.
gone() {
	wait_for not_running "$sid" && wait_for nothing_left && return 0
	echo "# left running:"
	ps -o pid,sid,args -s "$sid" 2>/dev/null | sed 's/^/#   /'
	pgrep -af "$tmp/t/" | sed 's/^/#   /'
	return 1
}

# tab_to REGEX: Tab to the next chat (at most 6 times), then Shift-Tab
# to the previous one (at most 12 times), until the pane shows a line
# matching REGEX (the chats' order moves as their messages come).
tab_to() {
	tt_i=0
	while [ "$tt_i" -lt 18 ]; do
		[ "$tt_i" -lt 6 ] && tm send-keys -t wachat Tab ||
		    tm send-keys -t wachat BTab
		wait_cmd 10 pane_has "$1" && return 0
		tt_i=$((tt_i + 1))
	done
	return 1
}

demo 2
check "the demo draws the QR first" \
    wait_pane 'scan this QR code with your phone'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "the simulated phone scans it: the pane shows the account linked and connected" \
    wait_pane 'connected as .*\+15550000001'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... with the chat panes and the help line" wait_pane 'q quit'
check "... and Bob's video in the chat list" wait_pane '🎬 Video On the way'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... Echo's document in the chat list" \
    wait_pane '📄 Document Route notes\.pdf'
check "Tab opens Echo's chat: the document with its name" \
    tab_to '│ +📄 Document Route notes\.pdf · [0-9]+ B · 1 page *$'
check "... and its caption" wait_pane '│ +Route notes for Saturday *$'
check "Tab opens Bob's chat: his photo with its size and sides" \
    tab_to '│ +📷 Photo · [0-9.]+ KB · 320×240 *$'
check "... and its caption" wait_pane '│ +The view from the top 🏔 *$'
check "Tab opens Alice's chat: her voice note with its duration" \
    tab_to '│ +🎤 Voice message 0:03 · [0-9.]+ KB *$'
check "... and her sticker with its sides" \
    wait_pane '│ +🌟 Sticker · [0-9]+ B · 128×128 *$'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q ends the demo with status 0" [ "$st" = 0 ]
[ "$st" = 0 ] || diag "$tmp/demo.err"
check "no process of the demo is left running" gone
check "the demo's temporary folder is removed" \
    emptied "$tmp/t"
check "nothing was written to HOME" emptied "$HOME"

# q while the QR is still shown, the phone waiting to scan.
demo 600
check "again, with the phone waiting: the QR shows" \
    wait_pane 'scan this QR code with your phone'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/demo.err"; }
tm send-keys -t wachat q
st=$(exit_status)
check "q before the scan ends the demo with status 0" [ "$st" = 0 ]
check "... and no process of the demo (the phone's sleep) is left running" \
    gone
check "... the demo's temporary folder is removed" \
    emptied "$tmp/t"

# TERM to the demo's shell while wachat runs stops everything.
demo 600
check "again: the QR shows" \
    wait_pane 'scan this QR code with your phone'
demo_pid=$(pgrep -P "$sid" -f 'tools/demo\.sh' | head -n 1)
check "the demo's shell is found (${demo_pid:-none})" [ -n "$demo_pid" ]
[ -n "$demo_pid" ] && kill -TERM "$demo_pid"
st=$(exit_status)
check "TERM to the demo's shell ends the demo (status ${st:-none}, 143 wanted)" \
    [ "$st" = 143 ]
[ "$st" = 143 ] || { capture; diag "$tmp/pane"; diag "$tmp/demo.err"; }
check "... wachat, the sim and the phone are gone" gone
check "... the demo's temporary folder is removed" \
    emptied "$tmp/t"
check "... nothing was written to HOME" emptied "$HOME"
finish_tap
