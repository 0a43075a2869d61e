#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Home and End in the message pane (issue 17 point 8), in a real
# terminal: wachat in a detached 100x30 tmux pane against wachat-sim,
# linked as alice; bob's phone sends 200 numbered messages ("fb 001" to
# "fb 200", more than the 150 rows the pane holds, so the oldest are read
# from the database; all unread, the chat opens at the first, End goes
# to the newest).  With bob's chat open and the input line empty,
# Home shows fb 001 as the pane's first message (nothing newer than a
# page: fb 200 gone); PgDn moves on from there (fb 001 scrolls away, a
# later one shows); End shows fb 200 at the bottom again, and a message
# bob sends then shows at once (following again).  With text typed, Home
# moves the cursor (a character typed lands at the start of the line),
# not the pane.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
N=200

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
link_and_connect

# bob's N messages, in order ("fb 001".."fb 200")
i=1
sent_ok=0
while [ $i -le $N ]; do
	if ctl phone-send $B $AJ "$(printf 'fb %03d' $i)" >/dev/null 2>&1
	then
		sent_ok=$((sent_ok + 1))
	fi
	i=$((i + 1))
done
check "bob's phone sent all $N messages ($sent_ok)" [ "$sent_ok" -eq $N ]
check "bob's chat shows in the list" wait_pane "fb $N"
tm send-keys -t wachat Tab
# all N unread, more than a page: the chat opens at the first unread
# (tests/unreadline17-line-tmux.sh); End goes to the newest
check "Tab opens bob's chat, at its first unread" \
    wait_pane "│ *$N unread messages *\$"
failed_now && show
tm send-keys -t wachat End
check "... End: at its newest" wait_pane "│ *fb $N\$"
failed_now && show
# every message stored (the shell reads the database)
all_in() {
	"$W" history $B --limit 0 --data-dir "$tmp/data" >"$tmp/h.txt" 2>&1 &&
	    grep -q "fb 001" "$tmp/h.txt" && grep -q "fb $N" "$tmp/h.txt"
}
check "all $N messages are stored" wait_for all_in
failed_now && diag "$tmp/h.txt"

# first_fb: the number of the first "fb NNN" message in the pane, top
# down (the chat list's preview, left of the │, aside).
first_fb() {
	capture
	sed -n 's/^.*│ *fb \([0-9][0-9][0-9]\) *$/\1/p' "$tmp/pane" |
	    head -n 1
}
first_is() {
	[ "$(first_fb)" = "$1" ]
}
first_not() {
	f=$(first_fb)
	[ -n "$f" ] && [ "$f" != "$1" ]
}

tm send-keys -t wachat Home
check "Home shows fb 001 as the pane's first message" \
    wait_cmd "$WAIT" first_is 001
failed_now && show
check "... the newest are not shown" wait_gone "│ *fb $N\$"
check "... fb 002 follows it" wait_pane "│ *fb 002\$"
failed_now && show

tm send-keys -t wachat PageDown
check "PgDn from Home moves on: fb 001 scrolls away" \
    wait_cmd "$WAIT" first_not 001
failed_now && show
check "... later messages show" wait_pane "│ *fb 0(2[0-9]|3[0-9])\$"
failed_now && show

tm send-keys -t wachat End
check "End shows the newest, fb $N, again" wait_pane "│ *fb $N\$"
failed_now && show
check "... fb 001 is gone" wait_gone "│ *fb 001\$"
ctl phone-send $B $AJ "after the end" >/dev/null 2>&1
check "after End a new message shows at once (following again)" \
    wait_pane "│ *after the end\$"
failed_now && show

# With text typed, Home is the input line's: the cursor to its start.
tm send-keys -t wachat -l "bc"
check "text typed shows in the input line" wait_pane '> *bc'
tm send-keys -t wachat Home
input_read
tm send-keys -t wachat -l "a"
check "with text typed Home moves the cursor (abc)" wait_pane '> *abc'
failed_now && show
check "... and the pane stays at the newest" pane_has "│ *after the end\$"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
