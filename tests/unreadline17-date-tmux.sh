#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Jump to a date (issue 17 point 8), in a real terminal: wachat in a
# detached 100x30 tmux pane against wachat-sim, linked as alice, whose
# phone holds a history of 300 messages in one chat over two years and
# more (history sync).  With that chat open, Alt-j asks for a date; a
# day in the middle of the history (the shell's `wachat history` says
# which day its first message on or after that is) shows that day's
# separator as the pane's first row, older ones not drawn.  A date that is not one (2025-02-30) is refused in the
# prompt; one after the last message (2099-01-01), and "yesterday" and
# a weekday's name (nothing that recent), say there is no message on or
# after that day (its YYYY-MM-DD) and leave the pane as it was.  PgUp
# then reads the days before.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
C=15557000001
M=300

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need date openssl

# the history comes through the media host: HTTPS, a certificate of our own
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
ctl history-set $A 1 $M 7 >"$tmp/hist.json" 2>&1
check "the phone holds a history of $M messages" \
    grep -q "\"messages\":$M" "$tmp/hist.json"
failed_now && diag "$tmp/hist.json"

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --ca-file '$tmp/cert.pem' --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A"
failed_now && show

# the days of the chat's messages, oldest first, as the shell says them
all_in() {
	"$W" history $C --limit 0 --data-dir "$tmp/data" >"$tmp/h.txt" \
	    2>/dev/null || return 1
	grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}' "$tmp/h.txt" >"$tmp/days"
	[ "$(wc -l <"$tmp/days")" -ge $M ]
}
check "all $M messages are stored" wait_for all_in
failed_now && diag "$tmp/h.txt"
# D: the day after the 150th message's; E: the first day with a message
# on or after D
D=$(date -d "$(sed -n 150p "$tmp/days") + 1 day" +%F)
E=$(awk -v d="$D" '$0 >= d { print; exit }' "$tmp/days")
check "a day to jump to ($D: the first message on or after it is on $E)" \
    [ -n "$D" ] && [ -n "$E" ]
# sep DAY: the day separator drawn for DAY (YYYY-MM-DD)
sep() {
	LC_ALL=C date -d "$1" '+── %a %d %b %Y ──'
}
# first_sep: the first day separator in the pane, as YYYY-MM-DD (a
# fresh capture).
first_sep() {
	capture
	fs=$(grep -oE '── [A-Z][a-z]{2} [0-9]{2} [A-Z][a-z]{2} [0-9]{4} ──' \
	    "$tmp/pane" | head -n 1 | sed 's/── [A-Za-z]* \(.*\) ──/\1/')
	[ -n "$fs" ] && LC_ALL=C date -d "$fs" +%F
}
first_is() {
	[ "$(first_sep)" = "$1" ]
}
first_before() {
	fb=$(first_sep)
	[ -n "$fb" ] && [ "$fb" \< "$1" ]
}

# the list shows the chat (its first row, under "Chats")
listed() {
	capture
	sed -n 3p "$tmp/pane" | grep -Eq '^ ?[^ │]'
}
check "the chat list shows the chat" wait_for listed
tm send-keys -t wachat Tab
check "Tab opens the chat" wait_pane '│ *── Today ──|│ *── [A-Z][a-z]{2} [0-9]{2}'
failed_now && show

tm send-keys -t wachat M-j
check "Alt-j asks for a date" wait_pane 'Jump to a date: YYYY-MM-DD'
failed_now && show
tm send-keys -t wachat -l "$D"
tm send-keys -t wachat Enter
check "$D: the pane's first day is $E ($(sep "$E"))" \
    wait_cmd "$WAIT" first_is "$E"
failed_now && show
check "... drawn from the pane's top (the bar, then that day)" eval \
    "sed -n 3p '$tmp/pane' | grep -q -- '$(sep "$E")'"
check "... the prompt closed" pane_lacks 'Jump to a date'
failed_now && show
# the text of E's first message (under its header, the pane's 5th row)
T=$(sed -n 5p "$tmp/pane" | sed 's/^[^│]*│//')
# stays: E's first message still drawn, nothing older (a note over the
# input line takes the pane's last row, so the separator may scroll off)
stays() {
	capture
	[ -n "$T" ] && grep -Fq -- "$T" "$tmp/pane" && ! first_before "$E"
}

tm send-keys -t wachat M-j
check "Alt-j again" wait_pane 'Jump to a date: YYYY-MM-DD'
tm send-keys -t wachat -l "2025-02-30"
tm send-keys -t wachat Enter
check "2025-02-30 is refused: not a date" \
    wait_pane 'not a date: YYYY-MM-DD, today, yesterday or a weekday'
failed_now && show
tm send-keys -t wachat C-u
tm send-keys -t wachat -l "2099-01-01"
tm send-keys -t wachat Enter
check "2099-01-01: no message on or after it" \
    wait_pane 'no message in this chat on or after 2099-01-01'
check "... and the pane stays at $E" stays
failed_now && show

Y=$(date -d yesterday +%F)
tm send-keys -t wachat M-j
check "Alt-j again" wait_pane 'Jump to a date: YYYY-MM-DD'
tm send-keys -t wachat -l "yesterday"
tm send-keys -t wachat Enter
check "yesterday ($Y): no message on or after it" \
    wait_pane "no message in this chat on or after $Y"
failed_now && show
# the last Monday, today included
i=0
while [ $i -lt 7 ]; do
	MO=$(date -d "-$i day" +%F)
	[ "$(LC_ALL=C date -d "$MO" +%A)" = Monday ] && break
	i=$((i + 1))
done
tm send-keys -t wachat M-j
check "Alt-j again" wait_pane 'Jump to a date: YYYY-MM-DD'
tm send-keys -t wachat -l "Monday"
tm send-keys -t wachat Enter
check "Monday ($MO): no message on or after it" \
    wait_pane "no message in this chat on or after $MO"
check "... the pane still at $E" stays
failed_now && show

# PgUp at the top reads the page before (the view stays), the next
# scrolls to it: press it until a day before E is drawn.
up_before() {
	tm send-keys -t wachat PageUp
	sleep 0.3
	first_before "$1"
}
check "PgUp reads the days before $E" wait_cmd "$WAIT" up_before "$E"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
