#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A linked wachat started with the server stopped (issue 17 point 1): in
# a 100x30 tmux pane, linked as alice against wachat-sim, bob's phone
# writes and we answer; wachat quits.  It starts again with its server
# behind a relay (tests/tcp-relay.py) that is not running, so every
# connection is refused.  At once the chat list shows bob's chat from the
# database, Tab opens it with its history, 'q' is text (the keys of the
# pairing screen are not active) and Backspace takes it back; a message
# typed and sent is queued (… tick), in the pane and as the list's
# preview, and has not reached bob's phone.  The relay starts (the server
# is back): wachat connects, the queued message reaches bob's phone and
# its tick moves on.  Ctrl-q quits with status 0 and leaves the terminal
# blocking (not O_NONBLOCK, which libuv set), as the shell had it.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
RELAY="${top_srcdir:-.}/tests/tcp-relay.py"

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# start_pane URL: wachat in the tmux session "wachat" with its server at
# URL; its exit status goes to $tmp/status, its stderr to $tmp/w.err.
start_pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$1' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    st=\$?; python3 -c 'import fcntl, os; \
	    print(fcntl.fcntl(0, fcntl.F_GETFL) & os.O_NONBLOCK)' \
	    >'$tmp/nonblock'; echo \$st >'$tmp/status'"
}

# Linked and a conversation in the database.
start_pane "$URL"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's message comes in" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "... Tab opens bob's chat" wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
tm send-keys -t wachat -l "answer online"
tm send-keys -t wachat Enter
check "... our answer reaches bob's phone" \
    wait_ctl '"text":"answer online"' phone-inbox $B
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
check "... and gives the terminal back blocking, as the shell had it" \
    [ "$(cat "$tmp/nonblock" 2>/dev/null)" = 0 ]
tm kill-server >/dev/null 2>&1

# The server stopped: a port nothing listens on, until the relay starts.
RP=$(python3 "$RELAY" free-port)
t0=$(date +%s%N)
start_pane "ws://127.0.0.1:$RP/ws/chat"
check "started with the server stopped, the chat list shows bob's chat" \
    wait_panes 'Chats' '^bob ' 'answer online'
t1=$(date +%s%N)
failed_now && show
check "... and the connection is refused meanwhile" \
    wait_pane 'cannot connect to 127\.0\.0\.1'
check "... from the database at once ($(((t1 - t0) / 1000000)) ms, < 5000)" \
    [ $(((t1 - t0) / 1000000)) -lt 5000 ]
tm send-keys -t wachat Tab
check "Tab opens bob's chat: its history shows" \
    wait_panes '^.*│ *bob [0-9]{2}:[0-9]{2}' '│ +hello from bob' \
    '│ +answer online'
failed_now && show
tm send-keys -t wachat q
check "q is text in the input line (not quit)" wait_pane '│> q *$'
input_read
check "... wachat is still running" [ ! -e "$tmp/status" ]
tm send-keys -t wachat p
check "... p too: no phone-number prompt of the pairing screen" \
    wait_pane '│> qp *$'
check "... which is not shown" pane_lacks 'phone number'
tm send-keys -t wachat BSpace BSpace
check "... Backspace takes them back" wait_pane '│> *$'
failed_now && show

tm send-keys -t wachat -l "typed while offline"
tm send-keys -t wachat Enter
check "a message sent offline shows in the pane, queued (…)" \
    wait_pane '│ *You [0-9]{2}:[0-9]{2} …'
check "... with its text" wait_pane '│ +typed while offline'
check "... and as the chat list's preview" \
    wait_pane '^ ?(You: )?typed while offline'
check "... the input line is empty again" wait_pane '│> *$'
failed_now && show
check "... it has not reached bob's phone" \
    eval '! ctl phone-inbox $B | grep -q "typed while offline"'

# The server comes back.
python3 "$RELAY" "$RP" "$PORT" >"$tmp/relay.out" 2>"$tmp/relay.err" &
bg_pids="$bg_pids $!"
check "the relay listens (the server is back)" \
    wait_grep "$tmp/relay.out" '^listening'
check "... wachat connects" wait_pane "connected as .*\\+$A"
check "... the queued message reaches bob's phone" \
    wait_ctl '"text":"typed while offline"' phone-inbox $B
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
check "... and its tick moves on (✓ or ✓✓)" \
    wait_pane '│ *You [0-9]{2}:[0-9]{2} ✓'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
