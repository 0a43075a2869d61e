#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The chat screen in a real terminal: wachat in a detached 100x30 tmux
# pane against wachat-sim, linked as alice; bob's simulated phone sends
# (ctl phone-send).  The chat shows in the list with its unread count and
# preview; Tab opens it, shows the message and sends bob's phone a read
# receipt; a message typed with an emoji and Enter shows with its tick,
# which goes to delivered (✓✓) when bob's phone answers; q is text once
# linked; an incoming text holding ESC[2J, an OSC 52 clipboard write, a
# carriage return and U+202E shows inert (replacement characters, the
# screen not cleared, tmux's buffer unchanged); 60x20 and back keeps the
# chat list and the input line; Ctrl-q quits with status 0.  TAP.
# Every wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
R=$(printf '\357\277\275')	# U+FFFD

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact 15550000004 100000000000004 Echo $A >/dev/null 2>&1

rm -f "$tmp/status"
# start_pane: wachat in the tmux session "wachat"; its exit status goes
# to $tmp/status, its stderr to $tmp/w.err.
start_pane() {
	tm new-session -d -s wachat -x 100 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}
start_pane
# OSC 52 from a program would set tmux's buffer: the canary must stay.
tm set-option -g set-clipboard on >/dev/null 2>&1
tm set-buffer -b canary "canary" 2>/dev/null

wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
check "... and shows the chat list, the input line and the help line" \
    wait_panes 'Chats' '│> ?' 'help'
failed_now && show

# Bob's phone reaches wachat's device once its prekeys are on the server
# (the log's WA_ENG_EV_PREKEYS_UPLOADED line, src/app.c).
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'

# Bob's phone sends: the chat comes into the list, unread.
ctl phone-send $B $AJ "hello from bob" >"$tmp/send1.json" 2>&1
bid=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$tmp/send1.json" | head -n 1)
check "bob's chat shows in the list with its preview" \
    wait_pane 'hello from bob'
# (the count may come a frame after the preview on a loaded machine)
check "... and its unread count 1" \
    wait_pane 'hello from bob +1 *($|│|\|)'
failed_now && show

# Tab opens it: the message in the pane, a read receipt to bob's phone.
tm send-keys -t wachat Tab
check "Tab opens bob's chat: the message shows under its sender" \
    wait_pane '^.*│ *bob [0-9]{2}:[0-9]{2}'
failed_now && show
check "... and bob's phone gets a read receipt for ${bid:-?}" \
    wait_ctl "\"id\":\"$bid\",\"from\":\"$A:1@s.whatsapp.net\",\"type\":\"read\"" \
    phone-inbox $B
failed_now && { ctl phone-inbox $B | sed 's/^/# /'; diag "$tmp/send1.json"; }

# q is text once linked; Backspace takes it back.
tm send-keys -t wachat q
check "q is text in the input line once linked" wait_pane '> q *$'
tm send-keys -t wachat BSpace
check "... Backspace takes it back" wait_gone '> q *$'
check "... wachat is still running" [ ! -e "$tmp/status" ]

# A message typed with an emoji goes out; its tick goes to delivered.
tm send-keys -t wachat -l "hi bob 👍"
check "the typed text with its emoji shows in the input line" \
    wait_pane '> hi bob 👍'
tm send-keys -t wachat Enter
# The tick's states as captured, until delivered (the intermediate ones,
# queued … and sent ✓, are checked in tests/test-ui-view; here
# the receipt often comes before a capture could see them).
ticks=
# delivered: a fresh capture shows our newest message's tick as ✓✓ (the
# ticks seen on the way are kept in $ticks).
delivered() {
	capture
	t=$(sed -n 's/^.*│ *You [0-9][0-9]:[0-9][0-9] \([^ ]*\) *$/\1/p' \
	    "$tmp/pane" | tail -n 1)
	case " $ticks " in *" $t "*) ;; *) ticks="$ticks $t" ;; esac
	[ "$t" = "✓✓" ]
}
check "Enter sends it: it shows as ours" wait_pane '^.*│ *You [0-9]{2}:[0-9]{2}'
wait_for delivered
check "... its tick goes to delivered (✓✓; seen:$ticks)" \
    grep -Eq 'You [0-9]{2}:[0-9]{2} ✓✓' "$tmp/pane"
failed_now && show
check "... the input line is empty again" wait_gone '> hi bob'
check "... and its text is in the pane" wait_pane 'hi bob 👍'
check "... bob's phone decrypted \"hi bob 👍\"" \
    wait_ctl '"text":"hi bob 👍"' phone-inbox $B

# Escape sequences from the network are inert.
sleep 1.1	# a second later: the next message sorts after ours
evil=$(printf 'x\033[2Jy\033]52;c;cHduZWQ=\007z\rw\342\200\256v')
ctl phone-send $B $AJ "$evil" >"$tmp/send2.json" 2>&1
check "an incoming text with ESC[2J, OSC 52, CR and U+202E shows" \
    wait_pane "x${R}\\[2Jy${R}\\]52;c;cHduZWQ=${R}z${R}w${R}v"
failed_now && { show; diag "$tmp/send2.json"; }
check "... the screen was not cleared: the earlier messages are there" \
    wait_panes 'hello from bob' 'hi bob 👍' "x${R}\\[2Jy"
check "... tmux's buffer is unchanged (no clipboard write)" \
    sh -c "[ \"\$(tmux -S '$SOCK' show-buffer 2>/dev/null)\" = canary ]"
check "... and no other buffer was made" \
    sh -c "[ \$(tmux -S '$SOCK' list-buffers 2>/dev/null | wc -l) -eq 1 ]"

eid=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$tmp/send2.json" | head -n 1)

# inbox_match REGEX: until bob's phone's inbox matches REGEX.
inbox_match() {
	wait_ctl "$1" phone-inbox $B
}

# Up selects (input empty), Enter replies to the selected message.
tm send-keys -t wachat Up Up Up
input_read
tm send-keys -t wachat Enter
check "Up Up Up selects bob's first message; Enter starts a reply" \
    wait_pane 'replying to: hello from bob'
tm send-keys -t wachat -l "re: hello"
tm send-keys -t wachat Enter
check "... the reply reaches bob's phone quoting ${bid:-?}" \
    inbox_match "\"text\":\"re: hello\",\"quoted_id\":\"$bid\""
check "... and shows under its quoted line, naming bob" \
    wait_pane '│ +> bob: hello from bob'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }

# Alt-s on a selected message, 1: a thumbs up.
tm send-keys -t wachat Up Up
input_read
tm send-keys -t wachat M-s
check "Alt-s asks for the reaction" wait_pane 'React: 1 '
tm send-keys -t wachat 1
check "... 1 sends 👍 to bob's phone for ${eid:-?}" \
    inbox_match "\"emoji\":\"👍\",\"target_id\":\"$eid\""
check "... and the reaction shows under the message, ours: 👍 You" \
    wait_pane '^.*│ +👍 You *$'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
tm send-keys -t wachat Escape
input_read

# A text pasted as a terminal pastes it (tmux's paste with the
# bracketed-paste marks wachat asked for) keeps its lines: nothing goes
# at its newline, and Enter sends it whole.
tm set-buffer -b paste "$(printf 'pasted one\npasted two')"
tm paste-buffer -p -d -b paste -t wachat
check "a pasted two-line text waits in the input line" \
    wait_pane '│> ?pasted one'
check "... its second line under it" wait_pane '│ *pasted two'
failed_now && show
input_read
check "... nothing went to bob's phone at its newline, so far" \
    eval '! ctl phone-inbox $B | grep -q "pasted"'
tm send-keys -t wachat Enter
check "... Enter sends it whole: one message with both lines" \
    inbox_match '"text":"pasted one\\npasted two"'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
# A message sent at the newline would have reached the phone before the
# whole one (one connection, in order): now it would be there.
check "... and no message with one of its lines alone" \
    eval '! ctl phone-inbox $B | grep -Eq "\"text\":\"pasted (one|two)\""'

# Up, Alt-e edits that message of ours: its text in the input line, the
# new text goes to bob's phone as an edit of it, "(edited)" here; Up,
# Ctrl-d, y deletes it for everyone.
pid=$(ctl phone-inbox $B | tr '{' '\n' |
    sed -n 's/.*"id":"\([^"]*\)".*"text":"pasted one\\npasted two".*/\1/p' |
    head -n 1)
tm send-keys -t wachat Up
input_read
tm send-keys -t wachat M-e
check "Alt-e on it puts its text in the input line to edit" \
    wait_pane 'editing your message'
tm send-keys -t wachat BSpace BSpace BSpace
tm send-keys -t wachat -l 'TWO'
tm send-keys -t wachat Enter
check "... Enter sends the new text as an edit of ${pid:-?} to bob's phone" \
    inbox_match "\"kind\":\"edit\",\"text\":\"pasted one\\\\npasted TWO\",.*\"target_id\":\"$pid\""
check "... and it shows edited here" wait_pane 'You [0-9:]+ \(edited\)'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
tm send-keys -t wachat Up
input_read
tm send-keys -t wachat C-d
check "Ctrl-d on it asks before deleting it for everyone" \
    wait_pane 'Delete this message for everyone'
tm send-keys -t wachat y
check "... y deletes it on bob's phone" \
    inbox_match "\"kind\":\"revoke\",.*\"target_id\":\"$pid\""
check "... and here" wait_pane 'message deleted'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }

# An emoji with a skin tone is as wide as tmux draws it (wachat asks the
# terminal at start): editing around it leaves nothing stale on screen.
tm send-keys -t wachat -l 'x👍🏽y'
tm send-keys -t wachat Home Delete
check "typing x👍🏽y, Home, Delete: the input line shows 👍🏽y, no x left" \
    wait_pane '│> 👍🏽y *$'
check "... nor anything after it" eval '! grep -q "👍🏽y.*[xy]" "$tmp/pane"'
failed_now && show
tm send-keys -t wachat C-u

# Resizes keep a sane layout.
tm resize-window -t wachat -x 60 -y 20
wait_size 60x20
check "at 60x20 the chat list and the input line are there" \
    wait_panes 'Chats' '│> ?'
check "... and no 'too small'" eval '! grep -q "too small" "$tmp/pane"'
failed_now && show
# As a person would: a new chat with Echo by number, a message with an
# emoji; its tick goes to read (✓✓ in cyan: Echo's phone reads it) and
# the echo appears.
tm send-keys -t wachat C-n
check "Ctrl-n opens the chat picker" wait_pane "Open a chat: [0-9]+ chats?"
tm send-keys -t wachat -l "15550000004"
tm send-keys -t wachat Enter
tm send-keys -t wachat -l "hello echo 🎉"
tm send-keys -t wachat Enter
check "the echo contact answers in the open chat" \
    wait_pane 'echo: hello echo 🎉'
failed_now && show
read_tick() {
	tm capture-pane -p -e -t wachat >"$tmp/pane-e" 2>/dev/null
	grep -Eq "$(printf '\033')\[([0-9;]*;)?(36|38;5;6)m[^$(printf '\033')]*✓✓" \
	    "$tmp/pane-e"
}
check "... and our message's tick shows it read (✓✓ in the read colour)" \
    wait_for read_tick

tm resize-window -t wachat -x 30 -y 10
wait_size 30x10
check "at 30x10 one line says the window is too small" \
    wait_pane 'window too small'
tm send-keys -t wachat -l 'typed unseen'
input_read
tm resize-window -t wachat -x 100 -y 30
wait_size 100x30
check "back at 100x30: the list, the messages and the input line" \
    wait_panes 'echo: hello echo' 'Chats' '│> ?'
check "... empty: what was typed while nothing showed did not act" \
    eval '! grep -q "typed unseen" "$tmp/pane"'

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }

# Unlinked from the phone: the screen goes and the terminal says why.
rm -f "$tmp/status"
: >"$tmp/w.err"
start_pane
check "started again, it logs in" wait_pane 'connected as'
dev=$(ctl connections 2>/dev/null | tr ',' '\n' |
    sed -n "s/.*\"jid\":\"\($A:[1-9][0-9]*@s.whatsapp.net\)\".*/\1/p" |
    head -n 1)
ctl remove-device "$dev" >/dev/null 2>&1
st=$(exit_status)
check "unlinked (${dev:-no device found}), it stops with status 1" \
    sh -c "[ -n '$dev' ] && [ '$st' = 1 ]"
check "... and says so on the terminal after the screen" \
    grep -q '^wachat: logged out: .*run wachat again to link it anew$' \
    "$tmp/w.err"
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
