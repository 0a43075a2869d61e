#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# "New messages below" while reading back (issue 17 point 8), in a real
# terminal: wachat in a detached 100x30 tmux pane against wachat-sim,
# linked as alice; bob's phone sends 40 numbered messages ("rb 01" to
# "rb 40", more than the pane shows).  With bob's chat read to its end,
# PgUp reads back; two messages bob sends then do not move the view (the
# first message drawn stays the same, theirs not drawn) and the pane's
# last row says "2 new messages below"; they are not read yet (bob's
# chat counts 2 unread).  End shows them, the mark goes and they are
# read.  Read back again, one more says "1 new message below" (the
# singular); PgDn to the end (twice: the view stayed) takes the mark
# away.  From Home (the oldest
# page, the newest rows not held) one more shows the mark too, End takes
# it away and shows the message.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
N=40

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

say() {
	ctl phone-send $B $AJ "$1" >/dev/null 2>&1
}
i=1
sent_ok=0
while [ $i -le $N ]; do
	say "$(printf 'rb %02d' $i)" && sent_ok=$((sent_ok + 1))
	i=$((i + 1))
done
check "bob's phone sent all $N ($sent_ok)" [ "$sent_ok" -eq $N ]
check "bob's chat shows, $N unread" wait_pane "rb $N +$N *(\$|│|\\|)"
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane "│ +$N unread messages *\$"
tm send-keys -t wachat End
check "End: the newest, rb $N" wait_pane "│ +rb $N *\$"
check "... read: the count goes" wait_gone "rb $N +$N *(\$|│|\\|)"
failed_now && show

# top: the first "rb NN" drawn in the pane (a fresh capture).
top() {
	capture
	sed -n 's/^.*│ *\(rb [0-9][0-9]\) *$/\1/p' "$tmp/pane" | head -n 1
}
MARK='│ *↓ [0-9]+ new messages? below'

tm send-keys -t wachat PageUp
check "PgUp reads back: rb $N scrolls away" wait_gone "│ +rb $N *\$"
input_read
t0=$(top)
check "... a message is drawn at the top ($t0)" [ -n "$t0" ]
failed_now && show
say "below one"
say "below two"
check "two new messages: '2 new messages below' on the last row" \
    wait_pane '│ *↓ 2 new messages below \(End\)'
failed_now && show
# mark_last: the mark is on the pane's last row, just above the rule
# over the input line (the last capture).
mark_last() {
	ml=$(grep -nE -- "$MARK" "$tmp/pane" | head -n 1 | cut -d: -f1)
	[ -n "$ml" ] && sed -n "$((ml + 1))p" "$tmp/pane" |
	    grep -q '│─────'
}
check "... on the pane's last row" mark_last
t1=$(top)
check "... the view did not move (top $t0, now $t1)" [ "$t1" = "$t0" ]
check "... theirs are not drawn" pane_lacks '│ +below (one|two) *$'
check "... nor read: bob's chat counts 2 unread" \
    wait_pane 'below two +2 *($|│|\|)'
failed_now && show

tm send-keys -t wachat End
check "End: the new ones show" wait_panes '│ +below one *$' '│ +below two *$'
check "... the mark goes" wait_gone "$MARK"
check "... and they are read (the count goes)" \
    wait_gone 'below two +2 *($|│|\|)'
failed_now && show

tm send-keys -t wachat PageUp
check "PgUp reads back again" wait_gone '│ +below two *$'
input_read
say "below three"
check "one more: '1 new message below' (singular)" \
    wait_pane '│ *↓ 1 new message below \(End\)'
failed_now && show
# PgDn moves a screen back down; the view stayed, so the message's two
# rows are still under it: a second PgDn reaches the end
tm send-keys -t wachat PageDown
input_read
tm send-keys -t wachat PageDown
check "PgDn to the end: below three shows" wait_pane '│ +below three *$'
check "... the mark goes" wait_gone "$MARK"
failed_now && show

tm send-keys -t wachat Home
check "Home: the oldest, rb 01" wait_pane '│ +rb 01 *$'
input_read
say "below four"
check "a message from Home: '1 new message below'" \
    wait_pane '│ *↓ 1 new message below \(End\)'
check "... not drawn" pane_lacks '│ +below four *$'
failed_now && show
tm send-keys -t wachat End
check "End: below four shows" wait_pane '│ +below four *$'
check "... the mark goes" wait_gone "$MARK"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
