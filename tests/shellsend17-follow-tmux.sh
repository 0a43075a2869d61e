#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat history CHAT --follow (issue 17, the shell): wachat runs linked
# as alice in a tmux pane against wachat-sim and writes the database;
# beside it, `wachat history +BOB --follow` (as over SSH: no terminal,
# output to a file) prints bob's history, then each message as it is
# stored: one bob's phone sends, one we type in the pane, in that order,
# each once; it uses next to no CPU while it waits (no busy loop), and
# SIGTERM (then SIGINT, a second run) stops it with exit status 0.
# Started with no wachat running (the database closed cleanly), it
# follows a wachat started after it too.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

start_pane
link_and_connect
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's first message comes in" wait_pane 'hello from bob'
failed_now && show

# follow_bg OUT: wachat history +BOB --follow in the background into OUT
# (stderr in OUT.err); sets $fpid.
follow_bg() {
	env LC_ALL=C.UTF-8 TZ=UTC "$W" history "+$B" --follow \
	    --data-dir "$tmp/data" >"$1" 2>"$1.err" </dev/null &
	fpid=$!
	bg_pids="$bg_pids $fpid"
}

follow_bg "$tmp/f1"
check "history --follow prints the history first" \
    wait_grep "$tmp/f1" '^[0-9-]{10} [0-9:]{5}  bob: hello from bob$'
check "... and keeps running" running "$fpid"
failed_now && { diag "$tmp/f1"; diag "$tmp/f1.err"; }

t0=$(awk '{ print $14 + $15 }' "/proc/$fpid/stat" 2>/dev/null)
sleep 2
t1=$(awk '{ print $14 + $15 }' "/proc/$fpid/stat" 2>/dev/null)
check "... waiting 2 s costs it next to no CPU ($((t1 - t0)) ticks, < 20)" \
    [ $((t1 - t0)) -lt 20 ]

ctl phone-send $B $AJ "new from bob" >/dev/null 2>&1
check "a message bob sends now is printed as it is stored" \
    wait_grep "$tmp/f1" '^[0-9-]{10} [0-9:]{5}  bob: new from bob$'
failed_now && { diag "$tmp/f1"; diag "$tmp/f1.err"; show; }

tm send-keys -t wachat Tab
check "Tab opens bob's chat in the pane" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
tm send-keys -t wachat -l "typed in the pane"
tm send-keys -t wachat Enter
check "one we type in the running wachat is printed too, as You" \
    wait_grep "$tmp/f1" '^[0-9-]{10} [0-9:]{5}  You: typed in the pane$'
failed_now && { diag "$tmp/f1"; show; }
check "... each message once, in the order stored" sh -c "
    sed 's/^.\{18\}//' '$tmp/f1' >'$tmp/f1.text'
    printf '%s\n' 'bob: hello from bob' 'bob: new from bob' \
        'You: typed in the pane' | cmp -s - '$tmp/f1.text'"
failed_now && diag "$tmp/f1"

kill -TERM "$fpid"
wait_pid "$fpid"
check "SIGTERM stops it: exit status 0 ($status)" [ "$status" -eq 0 ]
check "... with nothing on stderr" no_line "$tmp/f1.err" .
failed_now && diag "$tmp/f1.err"

follow_bg "$tmp/f2"
check "a second run prints the three messages" \
    wait_grep "$tmp/f2" 'You: typed in the pane$'
kill -INT "$fpid"
wait_pid "$fpid"
check "SIGINT stops it: exit status 0 ($status)" [ "$status" -eq 0 ]
failed_now && diag "$tmp/f2.err"

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

# No wachat running, the database closed cleanly (read as a file that
# does not change): a wachat that starts later is followed too.
check "wachat closed the database cleanly (no WAL left)" \
    [ ! -e "$tmp/data/wachat.db-wal" ]
follow_bg "$tmp/f3"
check "history --follow with no wachat running prints the history" \
    wait_grep "$tmp/f3" 'You: typed in the pane$'
start_pane
check "wachat starts again and connects" wait_pane "connected as .*\\+$A"
ctl phone-send $B $AJ "after the restart" >/dev/null 2>&1
check "... a message bob sends then is printed too" \
    wait_grep "$tmp/f3" '^[0-9-]{10} [0-9:]{5}  bob: after the restart$'
failed_now && { diag "$tmp/f3"; diag "$tmp/f3.err"; show; }
kill -TERM "$fpid"
wait_pid "$fpid"
check "... SIGTERM stops it: exit 0 ($status)" [ "$status" -eq 0 ]
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits wachat cleanly: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
