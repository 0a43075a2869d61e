#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Notifications (issue 17 point 3), in a real terminal and through tmux:
# wachat in a tmux pane (focus-events and allow-passthrough on) against
# wachat-sim, linked as alice, with --notify-terminal osc777 and a
# notify-command that writes what it is given to a file.  A second tmux
# (the "outer terminal") has a client of the first attached in its pane,
# and what that client writes, the bytes a real terminal would get, is
# captured: bob's message, his chat not open, reaches it as OSC 777
# (tmux's passthrough unwrapped) with the bell, and the notify-command
# runs with "bob" and the text.  With bob's chat open on a focused pane
# his message notifies nothing (dave's message after it does, so the
# order shows it); unfocused (ESC [ O) it does.  A muted chat (dave's) is
# silent unless the message mentions us; a reaction of bob's to our
# message notifies.  The pane's title counts the unread chats.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need sqlite3 od

OSOCK="$tmp/outer.sock"
to() {
	tmux -u -S "$OSOCK" -f /dev/null "$@"
}
tmux_before_cleanup() {
	to kill-server >/dev/null 2>&1
}

cat >"$tmp/notify.sh" <<EOF
#!/bin/sh
printf '%s|%s\n' "\$1" "\$2" >>'$tmp/notified'
EOF
chmod +x "$tmp/notify.sh"
: >"$tmp/notified"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $D 100000000000005 dave $A >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' \
    --notify-terminal osc777 --notify-command '$tmp/notify.sh' \
    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
tm set-option -g focus-events on >/dev/null 2>&1
tm set-option -g allow-passthrough on >/dev/null 2>&1
# what wachat writes to its terminal, raw
tm pipe-pane -o -t wachat "cat >>'$tmp/out'"

link_and_connect

# The outer terminal: a client of wachat's tmux in a pane of another,
# its output (what a terminal would be sent) captured raw.
to new-session -d -s outer -x 100 -y 31 \
    "env -u TMUX TERM=screen-256color tmux -u -S '$SOCK' attach -t wachat"
to pipe-pane -o -t outer "cat >>'$tmp/outer'"
check "the outer terminal shows wachat through the tmux client" \
    wait_cmd "$WAIT" sh -c "tmux -u -S '$OSOCK' capture-pane -p -t outer |
    grep -q 'connected as'"

# has FILE REGEX: FILE, its lines joined, matches REGEX (extended).
has() {
	[ -f "$1" ] && tr -d '\n' <"$1" | grep -Eq -- "$2"
}
# notified REGEX: a line the notify-command wrote matches REGEX.
notified() {
	grep -Eq -- "$1" "$tmp/notified"
}
title_is() {
	[ "$(tm display-message -p -t wachat '#{pane_title}')" = "$1" ]
}
E=$(printf '\033')
BEL=$(printf '\007')

# 1. Bob writes; no chat is open.
sent $B "first from bob" "$tmp/s1.json" >/dev/null
check "bob's message shows in the list" wait_pane 'first from bob'
check "the notify-command runs with bob and the text" \
    wait_for notified '^bob\|first from bob$'
check "wachat writes the bell and OSC 777 wrapped for tmux" \
    wait_for has "$tmp/out" \
    "$BEL${E}Ptmux;$E$E\\]777;notify;bob;first from bob$E$E\\\\$E\\\\"
check "the outer terminal gets OSC 777 itself (tmux passed it through)" \
    wait_for has "$tmp/outer" "$E\\]777;notify;bob;first from bob$E\\\\"
check "... and the bell" wait_for has "$tmp/outer" "$BEL"
check "the pane's title counts one unread chat" wait_for title_is 'wachat (1)'
failed_now && { show; od -c "$tmp/out" | tail -n 12 | sed 's/^/# /';
    od -c "$tmp/outer" | grep -n '7   7   7' | head | sed 's/^/# /'; }

# 2. Bob's chat open on a focused pane: his message is seen, not
# notified; dave's after it is.
tm send-keys -t wachat -H 1b 5b 49	# focus in
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "... and reading it clears the title's count" \
    wait_for title_is 'wachat'
sent $B "second from bob" "$tmp/s2.json" >/dev/null
check "bob's second message shows in the open chat" \
    wait_pane '│ *second from bob'
sent $D "one from dave" "$tmp/s3.json" >/dev/null
check "dave's message notifies" wait_for notified '^dave\|one from dave$'
check "... bob's second, shown on the focused pane, did not" \
    sh -c "! grep -q 'second from bob' '$tmp/notified'"
failed_now && { show; diag "$tmp/notified"; }

# 3. The pane unfocused: bob's message in the open chat notifies.
tm send-keys -t wachat -H 1b 5b 4f	# focus out
input_read
sent $B "third from bob" "$tmp/s4.json" >/dev/null
check "unfocused, bob's message in the open chat notifies" \
    wait_for notified '^bob\|third from bob$'
tm send-keys -t wachat -H 1b 5b 49	# focus in
input_read
failed_now && { show; diag "$tmp/notified"; }

# 4. Dave's chat muted: silent, unless it mentions us.
check "dave's chat is muted in the database" \
    sqlite3 "$tmp/data/wachat.db" \
    "PRAGMA busy_timeout = 5000; UPDATE chat SET muted_until = -1
    WHERE jid = '$D@s.whatsapp.net'"
sent $D "dave again" "$tmp/s5.json" >/dev/null
check "dave's message shows in the list" wait_pane 'dave again'
sleep 1.2	# the chat list reloads at most once a second
sent $D "dave muted" "$tmp/s6.json" >/dev/null
check "... then the next, muted" wait_pane 'dave muted'
sent $D "hey @$A look" "$tmp/s7.json" >/dev/null
check "a mention of us in the muted chat notifies" \
    wait_for notified '^dave\|hey @15550000001 look$'
check "... the muted message before it did not" \
    sh -c "! grep -q 'dave muted' '$tmp/notified'"
failed_now && { show; diag "$tmp/notified"; }

# 5. A reaction of bob's to our message, his chat not on screen.
tm send-keys -t wachat -l 'hi bob'
tm send-keys -t wachat Enter
check "our message reaches bob's phone" \
    wait_ctl '"text":"hi bob"' phone-inbox $B
oid=$(ctl phone-inbox $B | tr '{' '\n' | grep '"text":"hi bob"' |
    sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | head -n 1)
tm send-keys -t wachat -H 1b 5b 4f	# focus out
input_read
ctl phone-react $B $AJ "$oid" "👍" >/dev/null 2>&1
check "bob's reaction to it notifies" \
    wait_for notified '^bob\|bob reacted 👍 to your message$'
failed_now && { show; diag "$tmp/notified"; }

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
check "the terminal's title is put back at the end (CSI 23;0 t)" \
    has "$tmp/out" "$E\\[23;0t"
finish_sim_tmux
