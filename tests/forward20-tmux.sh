#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Forwarding (issue 20; protocol-features.md 3.7), in a real terminal:
# wachat in a tmux pane against wachat-sim, linked as alice, with chats
# with bob, carol and dave.  Forwarded texts bob's phone sends show
# "(forwarded)", and "(forwarded many times)" at a score of 5.  Alt-.
# on bob's text opens the forward picker (chats only, its count), Space
# marks carol and dave, Enter sends: both phones decrypt the same text,
# marked forwarded with score 1; the copies show in carol's chat as ours,
# "(forwarded)".  The score-5 text goes to carol with score 6, bob's
# location as a location (rich) and bob's photo as media, each with
# score 1; Esc leaves the picker without sending.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
C=15550000004
D=15550000005
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl python3

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $C 100000000000004 carol $A >/dev/null 2>&1
ctl contact $D 100000000000005 dave $A >/dev/null 2>&1

# post ROUTE JSON-MEMBERS: bob's phone sends us a message (send-kind,
# send-media).
post() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",$2}" \
	    "$ADMIN/admin/mock-phone/$1" >>"$tmp/sent" 2>&1
}
# got PN REGEX: PN's phone has an inbox entry matching REGEX.
got() {
	ctl phone-inbox "$1" >"$tmp/inbox-$1" 2>&1 &&
	    grep -Eq -- "$2" "$tmp/inbox-$1"
}
wait_got() {
	wait_cmd "$WAIT" got "$@"
}
# n_fwd PN: how many forwarded messages PN's phone decrypted.
n_fwd() {
	ctl phone-inbox "$1" 2>/dev/null | grep -o '"forwarded":[0-9]*' |
	    wc -l | tr -d ' '
}

rm -f "$tmp/status"
tm new-session -d -s wachat -x 160 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
link_and_connect

sent $C "hi from carol" "$tmp/c1" >/dev/null
sent $D "hi from dave" "$tmp/d1" >/dev/null
check "carol's and dave's chats are listed" \
    wait_panes 'hi from carol' 'hi from dave'
post send-kind '"kind":"forwarded","text":"passed on once","score":1'
post send-kind '"kind":"forwarded","text":"passed on a lot","score":5'
sent $B "forward me please" "$tmp/b1" >/dev/null
check "bob's chat is listed" wait_pane 'forward me please'
tm send-keys -t wachat C-n
tm send-keys -t wachat -l bob
tm send-keys -t wachat Enter
check "bob's chat opens" wait_pane '│ +forward me please$'
check "a forwarded text: (forwarded) in its header" \
    wait_pane '│ *bob [0-9]{2}:[0-9]{2} \(forwarded\)'
check "at score 5: (forwarded many times)" \
    wait_pane '│ *bob [0-9]{2}:[0-9]{2} \(forwarded many times\)'
check "a text not forwarded says nothing of it" \
    [ "$(capture; grep -c '(forwarded' "$tmp/pane")" = 2 ]
failed_now && show

tm send-keys -t wachat Up
check "bob's text is selected" wait_pane 'Enter reply'
tm send-keys -t wachat M-.
check "Alt-. opens the forward picker over the chats" \
    wait_pane 'Forward to: 3 chats \(Space marks, Enter sends\)'
check "... each with its box" wait_panes '\[ \] carol' '\[ \] dave'
tm send-keys -t wachat -l car
check "typing narrows it" wait_pane 'Forward to: 1 chat '
tm send-keys -t wachat Space
check "Space marks carol" wait_pane '\[x\] carol'
tm send-keys -t wachat BSpace BSpace BSpace
tm send-keys -t wachat -l dav
tm send-keys -t wachat Space
tm send-keys -t wachat BSpace BSpace BSpace
check "Space marks dave too; carol stays marked" \
    wait_panes '\[x\] carol' '\[x\] dave' '\[ \] bob'
tm send-keys -t wachat Enter
check "Enter forwards: the note says to how many" \
    wait_pane 'forwarded to 2 chats'
check "carol's phone decrypts the text, forwarded, score 1" \
    wait_got $C '"kind":"text","text":"forward me please"[^}]*"forwarded":1'
check "dave's phone too" \
    wait_got $D '"kind":"text","text":"forward me please"[^}]*"forwarded":1'
failed_now && { show; diag "$tmp/inbox-$C"; }

# fwd WHAT NAME UP...: UP selects a message of bob's chat, Alt-. opens the
# picker (checked), NAME chosen, Enter forwards to it.
fwd() {
	fw_what=$1 fw_name=$2
	shift 2
	tm send-keys -t wachat "$@"
	tm send-keys -t wachat M-.
	check "$fw_what: the picker" wait_pane 'Forward to: 3 chats'
	tm send-keys -t wachat -l "$fw_name"
	tm send-keys -t wachat Enter
}

fwd "the score-5 text" carol Up Up
check "Enter with none marked forwards to the chosen chat" \
    wait_pane 'forwarded to 1 chat'
check "carol's phone: score 5 + 1" \
    wait_got $C '"text":"passed on a lot"[^}]*"forwarded":6'

post send-kind '"kind":"location","lat":52.516275,"lon":13.377704,"name":"Brandenburger Tor","address":"Pariser Platz"'
check "bob's location shows" wait_pane '│ +Location: Brandenburger Tor$'
fwd "the location" carol Up
check "carol's phone reads a location (rich), forwarded, score 1" \
    wait_got $C '"kind":"rich","text":"location[^"]*lat=52\.516275[^"]*name=Brandenburger Tor[^}]*"forwarded":1'

post send-media '"media":"image","caption":"the beach","size":4567,"width":640,"height":480'
check "bob's photo shows" wait_pane 'the beach'
fwd "the photo" dave Up
check "dave's phone reads media, forwarded, score 1, not uploaded again" \
    wait_got $D '"kind":"media","text":"the beach"[^}]*"forwarded":1'
check "... no upload was asked for" \
    sh -c "! grep -q 'media_conn\|uploaded' '$LOG'"
failed_now && { show; diag "$tmp/inbox-$D"; }

tm send-keys -t wachat Up
tm send-keys -t wachat M-.
check "Esc leaves the picker" wait_pane 'Forward to: 3 chats'
tm send-keys -t wachat Escape
check "... which closes" wait_gone 'Forward to:'
sleep 1
check "... and nothing more went to carol (3 forwards)" \
    [ "$(n_fwd $C)" = 3 ]

tm send-keys -t wachat C-n
tm send-keys -t wachat -l carol
tm send-keys -t wachat Enter
check "carol's chat: our copy, (forwarded)" \
    wait_pane '│ *You [0-9]{2}:[0-9]{2} \(forwarded\)'
check "... the text" wait_pane '│ +forward me please$'
check "... the score-6 one: (forwarded many times)" \
    wait_pane '│ *You [0-9]{2}:[0-9]{2} \(forwarded many times\)'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null
finish_sim_tmux
