#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# History on the chat screen in a real terminal: wachat in a detached
# 100x30 tmux pane, linked over wss to wachat-sim, whose phone holds a
# history of 30 chats.  The status line shows the import's progress and
# the chat list fills with the phone's chats; meanwhile `wachat chats` and
# `wachat search` read the same database from the shell; Alt-f finds the
# one message with a rare word, Enter opens its chat at it; the screen
# still sends there, and the contact's phone reads it; Ctrl-q quits with
# status 0.  TAP.  Every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl history-set $A 30 600 11 >"$tmp/hist.json" 2>&1
ctl history $A >"$tmp/phone.json" 2>&1
# The phone's newest chat, and the one message holding a rare word.
first=$(sed -n 's/.*"chat_list":\[{"jid":"[^"]*","name":"\([^"]*\)".*/\1/p' \
    "$tmp/phone.json")
word=$(grep -o 'qx[a-z0-9]*' "$tmp/phone.json" | head -n 1)
if [ -z "$word" ]; then
	for j in $(grep -o '"jid":"[0-9]*@s\.whatsapp\.net"' "$tmp/phone.json" |
	    sed 's/"jid":"//; s/"$//'); do
		ctl history-chat $A "$j" >"$tmp/chat.json" 2>&1
		word=$(grep -o 'qx[a-z0-9]*' "$tmp/chat.json" | head -n 1)
		if [ -n "$word" ]; then
			wchat=$j
			break
		fi
	done
fi
check "the phone holds a history of 30 chats with a rare word" \
    sh -c "[ -n '$first' ] && [ -n '$word' ]"
# Slow the media host a little, so the import's progress can be seen.
ctl history-media-delay 400 >/dev/null 2>&1

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME' \
    '$W' --url '$URL' --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"

wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links over wss and connects" wait_pane "connected as|history:"
check "the status line shows the history coming in" \
    wait_pane 'history: [0-9]+% \([0-9]+ messages added\)'
failed_now && show
check "the chat list shows the phone's newest chat by name" \
    wait_pane "$first"
failed_now && show

# The shell reads the same database while the screen runs (the import
# may still be going on: asked again until every chat is in).
all_chats() {
	"$W" chats --data-dir "$tmp/data" >"$tmp/chats.txt" 2>"$tmp/chats.err" &&
	    [ "$(count_lines "$tmp/chats.txt" '<')" = 30 ]
}
check "wachat chats reads it meanwhile: all 30 chats" wait_for all_chats
one_hit() {
	"$W" search "$word" --data-dir "$tmp/data" --json \
	    >"$tmp/search.json" 2>"$tmp/search.err" &&
	    [ "$(count_lines "$tmp/search.json" '"type":"hit"')" = 1 ]
}
check "wachat search finds the rare word's one message meanwhile" \
    wait_for one_hit
failed_now && { diag "$tmp/chats.err"; diag "$tmp/search.json"; }
ctl history-media-delay 0 >/dev/null 2>&1
wait_pane "connected as"

# Alt-f: every chat; the rare word; Enter opens the message.
tm send-keys -t wachat M-f
input_read
tm send-keys -t wachat -l "$word"
check "Alt-f and the rare word: one hit, its text shown" \
    wait_pane "$word"
failed_now && show
cp "$tmp/pane" "$tmp/pane-search"
tm send-keys -t wachat Enter
text=$(sed -n "s/.*\"text\":\"\\([^\"]*$word[^\"]*\\)\".*/\\1/p" \
    "$tmp/search.json" | head -n 1)
cname=$(sed -n 's/.*"chat_name":"\([^"]*\)".*/\1/p' "$tmp/search.json" |
    head -n 1)
opened() {
	capture
	! cmp -s "$tmp/pane" "$tmp/pane-search" &&
	    grep -q "$word" "$tmp/pane" &&
	    grep -q "│ *$cname" "$tmp/pane"
}
check "Enter opens its chat ($cname) at that message" wait_for opened
failed_now && { show; diag "$tmp/pane-search"; }

# The screen still sends, there.
tm send-keys -t wachat Escape
input_read
tm send-keys -t wachat -l 'back from the archive'
tm send-keys -t wachat Enter
check "the screen still sends: the message shows" \
    wait_pane 'back from the archive'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
