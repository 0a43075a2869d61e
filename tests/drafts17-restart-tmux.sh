#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Drafts kept across restarts (issue 17 point 10), in a real terminal:
# wachat in a 100x30 tmux pane against wachat-sim, linked as alice; bob's
# and dave's phones write.  Text typed in bob's chat without Enter, then
# dave's chat opened: bob's row says "Draft: ...".  Ctrl-q and a restart:
# bob's row says it again (dave's does not), opening bob's chat puts the
# text back in the input line with the cursor at its end (what is typed
# next follows it), Enter sends it and bob's phone gets it; after the
# next restart there is no draft anywhere.  Text left in the open chat
# when wachat gets SIGTERM is its draft after a restart, and so is text
# left when the terminal goes (tmux kills the pane: SIGHUP).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need pgrep

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $D 100000000000005 dave $A >/dev/null 2>&1

# wachat_pid: the pid of wachat, the child of the pane's shell.
wachat_pid() {
	pgrep -P "$(tm display-message -p -t wachat '#{pane_pid}')" | head -n 1
}

# row_has NAME REGEX: in a fresh capture, the chat list row of NAME (its
# name line) is followed by a line matching REGEX (its preview line).
row_has() {
	capture
	awk -v name="$1" -v re="$2" '
	    hit && $0 ~ re { found = 1 }
	    { hit = index($0, name " ") == 1 || index($0, " " name " ") == 1 }
	    END { exit !found }' "$tmp/pane"
}

# cursor_after TEXT: the terminal's cursor is on the input line's row,
# right after TEXT (its last character's column + 1).
cursor_after() {
	capture
	ca_xy=$(tm display-message -p -t wachat '#{cursor_x} #{cursor_y}')
	python3 -c '
import sys
text, xy, pane = sys.argv[1], sys.argv[2].split(), sys.argv[3]
x, y = int(xy[0]), int(xy[1])
rows = open(pane, encoding="utf-8").read().split("\n")
row = rows[y] if y < len(rows) else ""
at = row.find("> " + text)
sys.exit(0 if at >= 0 and at + 2 + len(text) == x else 1)' \
	    "$1" "$ca_xy" "$tmp/pane"
}

# bar_name: the open chat's name on its bar (the pane's second row, to
# the right of the list), or what that row says with no chat open.
bar_name() {
	capture
	sed -n '2s/^[^│]*│ *\([^ ]*\).*/\1/p' "$tmp/pane"
}

# bar_not NAME: the bar names another chat than NAME.
bar_not() {
	[ "$(bar_name)" != "$1" ]
}

# open_chat NAME: Tab until NAME's chat is open (the list's order is the
# store's, by the last message's time: not assumed), each Tab waited
# for (the bar changes); at most three.
open_chat() {
	oc_n=0
	while [ "$(bar_name)" != "$1" ] && [ $oc_n -lt 3 ]; do
		oc_prev=$(bar_name)
		tm send-keys -t wachat Tab
		wait_for bar_not "$oc_prev" || return 1
		oc_n=$((oc_n + 1))
	done
	wait_pane "│ *$1 [0-9]{2}:[0-9]{2}"
}

# quit_clean WHAT: Ctrl-q, wachat's exit status 0 and the session gone.
quit_clean() {
	tm send-keys -t wachat C-q
	qc_st=$(exit_status)
	check "$1: Ctrl-q quits, exit 0 (got ${qc_st:-none})" [ "$qc_st" = 0 ]
	failed_now && { show; diag "$tmp/w.err"; }
	tm kill-server >/dev/null 2>&1
}

# Linked, with two chats: dave's on top (newest), bob's under it.
start_pane
link_and_connect
ctl phone-send $B $AJ "one from bob" >/dev/null 2>&1
check "bob's chat shows" wait_pane 'one from bob'
sleep 1.1	# dave's message sorts first
ctl phone-send $D $AJ "one from dave" >/dev/null 2>&1
check "dave's chat shows" wait_pane 'one from dave'
failed_now && show

# Typed in bob's chat, no Enter; dave's chat opened.
check "Tab opens bob's chat" open_chat bob
tm send-keys -t wachat -l "see you at 8"
check "... text typed in its input line" wait_pane '│> see you at 8 *$'
check "Tab opens dave's chat" open_chat dave
check "... its input line is empty" wait_pane '│> *$'
check "... bob's row in the list says Draft: see you at 8" \
    wait_for row_has bob '^ ?Draft: see you at 8 +[0-9]* *│'
failed_now && show
quit_clean "bob's draft in the list"

# Restart: the draft is back.
start_pane
check "restarted: the list shows bob's row with its draft mark" \
    wait_for row_has bob '^ ?Draft: see you at 8 +[0-9]* *│'
check "... dave's row has none" row_has dave '^ ?one from dave'
check "... and no other row says Draft:" \
    eval '[ "$(grep -c "Draft:" "$tmp/pane")" = 1 ]'
failed_now && show
check "Tab opens bob's chat" open_chat bob
check "... the draft is in its input line" wait_pane '│> see you at 8 *$'
check "... the cursor at its end" wait_for cursor_after "see you at 8"
failed_now && { show; tm display-message -p -t wachat \
    'cursor #{cursor_x} #{cursor_y}' | sed 's/^/# /'; }
tm send-keys -t wachat -l " then"
check "... what is typed next follows it" \
    wait_pane '│> see you at 8 then *$'
tm send-keys -t wachat Enter
check "Enter sends it: bob's phone gets it" \
    wait_ctl '"text":"see you at 8 then"' phone-inbox $B
check "... the input line is empty" wait_pane '│> *$'
check "... bob's row shows it as our last message" \
    wait_for row_has bob '^ ?You: see you at 8 then'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
check "Tab opens dave's chat" open_chat dave
check "... bob's row has no draft" row_has bob '^ ?You: see you at 8 then'
quit_clean "sent"

# Restart: no draft.
start_pane
check "restarted: bob's row shows our message, no draft" \
    wait_for row_has bob '^ ?You: see you at 8 then'
check "... no row says Draft:" pane_lacks 'Draft:'
failed_now && show
check "Tab opens bob's chat" open_chat bob
check "... its input line is empty" wait_pane '│> *$'
failed_now && show

# SIGTERM with text in the open chat's line.
tm send-keys -t wachat -l "left at a TERM"
check "text typed in bob's chat" wait_pane '│> left at a TERM *$'
input_read
wp=$(wachat_pid)
check "wachat's pid is known (${wp:-none})" [ -n "$wp" ]
kill -TERM "$wp" 2>/dev/null
st=$(exit_status)
check "kill -TERM: wachat stops cleanly, exit 0 (got ${st:-none})" \
    [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
start_pane
check "restarted: bob's row has the draft left at the TERM" \
    wait_for row_has bob '^ ?Draft: left at a TERM +[0-9]* *│'
failed_now && show
check "Tab opens bob's chat" open_chat bob
check "... the draft is in its input line" wait_pane '│> left at a TERM *$'
failed_now && show

# The terminal goes (the pane killed: SIGHUP) with text in the line.
tm send-keys -t wachat C-u
check "Ctrl-u empties the line" wait_pane '│> *$'
tm send-keys -t wachat -l "left at a hangup"
check "text typed in bob's chat" wait_pane '│> left at a hangup *$'
input_read
wp=$(wachat_pid)
check "wachat's pid is known (${wp:-none})" [ -n "$wp" ]
tm kill-server >/dev/null 2>&1
check "the pane killed (SIGHUP): wachat stops" wait_for not_running "$wp"
check "... on the hangup (its log says signal 1)" \
    wait_grep "$LOG" 'signal 1$'
check "... and stopped cleanly (its log says exit 0)" \
    eval 'tail -n 5 "$LOG" | grep -q "exit 0"'
failed_now && { tail -n 20 "$LOG" | sed 's/^/# log: /'; diag "$tmp/w.err"; }
start_pane
check "restarted: bob's row has the draft left at the hangup" \
    wait_for row_has bob '^ ?Draft: left at a hangup +[0-9]* *│'
failed_now && show
check "Tab opens bob's chat" open_chat bob
check "... that draft is in its input line" \
    wait_pane '│> left at a hangup *$'
failed_now && show
quit_clean "the end"

finish_sim_tmux
