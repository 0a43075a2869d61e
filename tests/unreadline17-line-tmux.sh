#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The "N unread messages" line (issue 17 point 8), in a real terminal:
# wachat in a detached 100x30 tmux pane against wachat-sim, linked as
# alice; bob's and dave's phones send.  Opening bob's chat with 2 unread
# shows "2 unread messages" above the first; dave's with one says "1
# unread message" (the singular).  Three come from bob while dave's chat
# is open: Ctrl-f opens bob's chat with "3 unread messages" on the row
# just above the first of them (its header under the line, its text
# under that), the two read before above the line; a message bob sends
# then shows and the line stays; opened again with nothing unread, the
# chat has no line.  60 come while dave's chat is open, more than a page:
# bob's chat opens at the first unread ("many 01" under "60 unread
# messages", the newest not drawn), PgUp reads the older ones, End the
# newest.  TAP; every wait is bounded.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net
N=60

. "${top_srcdir:-.}/tests/tmux-lib.sh"

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
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
link_and_connect

# say PN TEXT: PN's phone sends TEXT to us.
say() {
	ctl phone-send "$1" $AJ "$2" >/dev/null 2>&1
}
# row_of REGEX: the number of the pane's first row matching REGEX (the
# last capture), or nothing.
row_of() {
	grep -nE -- "$1" "$tmp/pane" | head -n 1 | cut -d: -f1
}
# line_above N TEXT: a fresh capture has the line "N unread messages"
# (or "1 unread message"), then on the next row the header of a message
# of bob's, then TEXT.
line_above() {
	capture
	la_l=$(row_of "│ +$1 unread messages? *\$")
	la_t=$(row_of "│ +$2 *\$")
	[ -n "$la_l" ] && [ -n "$la_t" ] && [ "$la_t" -eq $((la_l + 2)) ] &&
	    sed -n "$((la_l + 1))p" "$tmp/pane" |
	    grep -Eq '│ *bob +[0-9]{1,2}:[0-9]{2}'
}
# above_line TEXT: TEXT is drawn above the unread line (a fresh capture).
above_line() {
	capture
	al_l=$(row_of '│ +[0-9]+ unread messages? *$')
	al_t=$(row_of "│ +$1 *\$")
	[ -n "$al_l" ] && [ -n "$al_t" ] && [ "$al_t" -lt "$al_l" ]
}

say $B "ur old 1"
say $B "ur old 2"
check "bob's chat shows, 2 unread" wait_pane 'ur old 2 +2 *($|│|\|)'
failed_now && show
tm send-keys -t wachat Tab
check "Tab opens bob's chat: '2 unread messages' above ur old 1" \
    wait_for line_above 2 "ur old 1"
failed_now && show
check "... read: the count goes" wait_gone 'ur old 2 +2 *($|│|\|)'

sleep 1.1	# dave's sorts first
say $D "from dave"
check "dave's chat shows, 1 unread" wait_pane 'from dave +1 *($|│|\|)'
tm send-keys -t wachat C-f
check "Ctrl-f opens dave's chat" wait_pane '│ *from dave *$'
check "... with '1 unread message' (singular)" \
    wait_pane '│ +1 unread message *$'
failed_now && show
check "... read: the count goes" wait_gone 'from dave +1 *($|│|\|)'

say $B "ur new 1"
say $B "ur new 2"
say $B "ur new 3"
check "bob's chat counts 3 unread" wait_pane 'ur new 3 +3 *($|│|\|)'
failed_now && show
tm send-keys -t wachat C-f
check "Ctrl-f opens bob's: '3 unread messages' just above ur new 1" \
    wait_for line_above 3 "ur new 1"
failed_now && show
check "... ur old 2, read before, is above the line" \
    above_line "ur old 2"
check "... ur new 3 shows below" pane_has '│ +ur new 3 *$'
failed_now && show
check "... read: the count goes" wait_gone 'ur new 3 +3 *($|│|\|)'
say $B "ur new 4"
check "a message while the chat is open shows" wait_pane '│ +ur new 4 *$'
check "... and the line stays above ur new 1" line_above 3 "ur new 1"
failed_now && show
check "... read: no count" wait_gone 'ur new 4 +1 *($|│|\|)'

# Away and back with nothing unread: no line.
tm send-keys -t wachat Tab
check "Tab opens dave's chat" wait_pane '│ +from dave *$'
tm send-keys -t wachat Tab
check "Tab opens bob's chat again" wait_pane '│ +ur new 4 *$'
check "... with nothing unread it has no line" \
    pane_lacks 'unread message'
failed_now && show

# More unread than a page: opened at the first unread.
tm send-keys -t wachat Tab
check "Tab opens dave's chat" wait_gone '│ +ur new 4 *$'
check "... dave's" wait_pane '│ +from dave *$'
i=1
sent_ok=0
while [ $i -le $N ]; do
	say $B "$(printf 'many %02d' $i)" && sent_ok=$((sent_ok + 1))
	i=$((i + 1))
done
check "bob's phone sent all $N ($sent_ok)" [ "$sent_ok" -eq $N ]
check "bob's chat counts $N unread" wait_pane "many $N +$N *(\$|│|\\|)"
failed_now && show
tm send-keys -t wachat C-f
check "Ctrl-f opens bob's: '$N unread messages' just above many 01" \
    wait_for line_above $N "many 01"
failed_now && show
check "... the newest is not drawn (the pane starts at the first unread)" \
    pane_lacks "│ +many $N *\$"
failed_now && show
tm send-keys -t wachat PageUp
check "PgUp reads back: ur new 4, before the unread ones" \
    wait_pane '│ +ur new 4 *$'
failed_now && show
tm send-keys -t wachat End
check "End: the newest, many $N" wait_pane "│ +many $N *\$"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1
finish_sim_tmux
