#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What counts as read (issue 17 point 2), in a real terminal: wachat in a
# tmux pane (focus-events on) against wachat-sim, linked as alice; bob's
# and dave's phones send.  Tab twice passes dave's chat on the way to
# bob's: bob's phone gets a read receipt, dave's none, and dave's unread
# count stays.  The pane loses the focus (ESC [ O, as tmux writes it): a
# message bob sends then gets its delivery receipt but no read receipt,
# and bob's unread count shows; the focus comes back (ESC [ I): the read
# receipt goes and the count with it.  Ctrl-z turns the focus reports
# off (ESC [ ? 1004 l written, as bracketed paste's), taken up again
# after (ESC [ ? 1004 h).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
D=15550000005
AJ=$A@s.whatsapp.net

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
tm set-option -g focus-events on >/dev/null 2>&1
# what wachat writes to its terminal, raw
tm pipe-pane -o -t wachat "cat >>'$tmp/out'"

link_and_connect

# out_has REGEX: what wachat wrote, its lines joined, matches REGEX.
out_has() {
	tr -d '\n' <"$tmp/out" | grep -Eq -- "$1"
}

bid=$(sent $B "one from bob" "$tmp/s1.json")
check "bob's chat shows, unread" wait_pane 'one from bob +1 *($|│|\|)'
sleep 1.1	# dave's message sorts first
did=$(sent $D "one from dave" "$tmp/s2.json")
check "dave's chat shows above it, unread" wait_pane 'one from dave +1 *($|│|\|)'
check "... its delivery receipt went" wait_for receipt $D "$did" delivery
failed_now && show

# Tab Tab: dave's chat passed through, bob's stays open.
tm send-keys -t wachat Tab Tab
check "Tab Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "... bob's phone gets a read receipt" wait_for receipt $B "$bid" read
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }
sleep 2		# UI_VIEW_READ_MS and a tick more
check "... dave's phone gets none (his chat was only passed through)" \
    no_read $D "$did"
check "... and dave's unread count stays" \
    pane_has 'one from dave +1 *($|│|\|)'
failed_now && { show; ctl phone-inbox $D | sed 's/^/# /'; }

# Focus out: what comes is not read.
tm send-keys -t wachat -H 1b 5b 4f
input_read
bid2=$(sent $B "two from bob" "$tmp/s3.json")
check "unfocused: bob's new message shows in the open chat" \
    wait_pane '│ *two from bob'
check "... its delivery receipt went" wait_for receipt $B "$bid2" delivery
check "... bob's chat counts it unread" wait_pane 'two from bob +1 *($|│|\|)'
sleep 3
check "... 3 s on, no read receipt for it" no_read $B "$bid2"
check "... and the count is still there" \
    pane_has 'two from bob +1 *($|│|\|)'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }

# Focus in: read.
tm send-keys -t wachat -H 1b 5b 49
check "focus in: bob's phone gets the read receipt" \
    wait_for receipt $B "$bid2" read
check "... and the count goes" wait_gone 'two from bob +1 *($|│|\|)'
failed_now && { show; ctl phone-inbox $B | sed 's/^/# /'; }

# Ctrl-z: our modes off before stopping, on again after.  (The pane's
# process group is orphaned, so the kernel does not stop it: it goes on
# at once, as after fg.)
: >"$tmp/out"
tm send-keys -t wachat C-z
off=$(printf '\033\\[\\?1004l')
on=$(printf '\033\\[\\?1004h')
check "Ctrl-z: the focus reports turned off (ESC [ ? 1004 l)" \
    wait_for out_has "$off"
check "... and on again once it goes on (ESC [ ? 1004 h after)" \
    wait_for out_has "$off.*$on"
check "... the chat screen is back" wait_panes '│ *two from bob' 'help'
failed_now && { show; od -c "$tmp/out" | tail -n 8 | sed 's/^/# /'; }

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
finish_sim_tmux
