#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Disappearing messages (issue 20, protocol-features.md 3.5) in a real
# terminal: wachat in a tmux pane against wachat-sim, linked as alice.
# Bob's phone turns the timer on (the EPHEMERAL_SETTING protocolMessage,
# POST /admin/mock-phone/send-kind "ephemeral"): the chat's bar says
# "disappearing: 7 days" and the event line says who turned it on.  Then
# a short timer (3 s, driven by the test, never timed by it) and a text
# sent under it ("expiring": contextInfo.expiration): shown, found by
# `wachat search` and in the database, then gone from the pane, from
# `wachat history`, the database and the search once its time is up.
# Bob turns it off: the line, the bar without it.  Alt-h in wachat sets
# 7 days: our line, the bar, bob's phone reads an EPHEMERAL_SETTING of
# 604800 s, and our next text carries contextInfo.expiration 604800.  A
# group's timer: the admin route makes bob set 24 hours (the w:gp2
# notification), the line and the bar; Alt-h 0 in the group turns it off
# through the w:g2 iq.  The lines in German in `wachat history`.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
C=15550000004
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl sqlite3 msgfmt

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
ctl contact $C 100000000000004 carol $A >/dev/null 2>&1

# kind JSON-MEMBERS: bob's phone sends us a message of that kind.
kind() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",$1}" \
	    "$ADMIN/admin/mock-phone/send-kind" >>"$tmp/sent" 2>&1
}
# rows TEXT: how many message rows of the database hold TEXT.
rows() {
	sqlite3 -readonly "$tmp/data/wachat.db" \
	    "SELECT count(*) FROM message WHERE text LIKE '%$1%'" 2>>"$tmp/sql"
}
# rows_are N TEXT
rows_are() {
	[ "$(rows "$2")" = "$1" ]
}
# found WORD: `wachat search WORD` prints a hit.
found() {
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" search "$1" --data-dir "$tmp/data" \
	    >"$tmp/search" 2>&1 && grep -q "$1" "$tmp/search"
}
not_found() {
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" search "$1" --data-dir "$tmp/data" \
	    >"$tmp/search" 2>&1
	! grep -q "$1" "$tmp/search"
}
# inbox_has PN REGEX: PN's phone read a message matching REGEX.
inbox_has() {
	ctl phone-inbox "$1" >"$tmp/inbox" 2>&1 && grep -Eq -- "$2" "$tmp/inbox"
}

start_pane
link_and_connect
tm send-keys -t wachat C-g
check "the key page lists Alt-h beside Alt-g" \
    wait_pane 'Alt-g Alt-h +group info; disappearing messages \(timer\)'
tm send-keys -t wachat Escape
check "... any key closes it" wait_gone 'Keys \('

sent $B "hello bob here" "$tmp/s0" >/dev/null
check "bob's first text reaches the chat list" wait_pane 'hello bob here'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob'
check "... no timer on its bar yet" pane_lacks 'disappearing:'

kind '"kind":"ephemeral","secs":604800'
check "bob turns the timer on: the event line" \
    wait_pane 'bob turned on disappearing messages: 7 days'
check "... the bar says it" wait_pane '│ *bob +disappearing: 7 days'
failed_now && show

# A short timer, as the tests drive it: 3 seconds.
kind '"kind":"ephemeral","secs":3'
check "a 3-second timer: its line" \
    wait_pane 'bob turned on disappearing messages: 3 seconds'
kind '"kind":"expiring","secs":3,"text":"vanishing papaya"'
check "a message sent under it is shown" wait_pane 'vanishing papaya'
got=$(rows 'vanishing papaya')
check "... it is in the database (got ${got:-none})" [ "$got" = 1 ]
found papaya
check "... wachat search finds it" [ $? -eq 0 ]
check "once its time is up it is gone from the pane" \
    wait_gone 'vanishing papaya' 300
check "... from the database" wait_cmd 100 rows_are 0 'vanishing papaya'
check "... from the search index" not_found papaya
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "... and from wachat history" eval '! grep -q papaya "$tmp/hist"'
check "... which still has the text from before the timer" \
    grep -q 'hello bob here' "$tmp/hist"
check "... and the timer's lines" \
    grep -q 'bob turned on disappearing messages: 3 seconds' "$tmp/hist"
got=$(sqlite3 -readonly "$tmp/data/wachat.db" "SELECT count(*) FROM
    fts_pending WHERE rowid NOT IN (SELECT rowid FROM message)" \
    2>>"$tmp/sql")
check "... nor waits in the index's backlog (got ${got:-none})" \
    [ "$got" = 0 ]
failed_now && { show; diag "$tmp/hist"; diag "$tmp/sql"; }

kind '"kind":"ephemeral","secs":0'
check "bob turns it off: the line" \
    wait_pane 'bob turned off disappearing messages'
check "... the bar no longer says it" wait_gone 'disappearing: '
failed_now && show

# Alt-h: 2 sets 7 days.
tm send-keys -t wachat M-h
check "Alt-h asks which timer" \
    wait_pane 'Disappearing messages in bob: 1 for 24 hours, 2 for 7 days'
tm send-keys -t wachat 2
check "2: our line" wait_pane 'You turned on disappearing messages: 7 days'
check "... the bar" wait_pane '│ *bob +disappearing: 7 days'
check "bob's phone reads an EPHEMERAL_SETTING of 604800 s" wait_cmd 100 \
    inbox_has $B '"kind":"protocol",.*"ephemeral":"setting","expiration":604800'
tm send-keys -t wachat -l 'our kept secret'
tm send-keys -t wachat Enter
check "our next text goes out with contextInfo.expiration 604800" \
    wait_cmd 100 inbox_has $B '"text":"our kept secret",.*"ephemeral":"content","expiration":604800'
got=$(sqlite3 -readonly "$tmp/data/wachat.db" "SELECT expire_s - ts_ms / 1000
    FROM message WHERE text = 'our kept secret'" 2>>"$tmp/sql")
check "... and expires 7 days after it was sent (got ${got:-none})" \
    [ "$got" = 604800 ]
failed_now && { show; diag "$tmp/inbox"; }

# A group: bob sets 24 hours (the w:gp2 notification); Alt-h 0 off.
curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"subject\":\"Vanish club\",\"creator\":\"$B\",\"members\":[\"$A\",\"$C\"]}" \
    "$ADMIN/admin/groups" >"$tmp/group" 2>&1
G=$(sed -n 's/.*"id":"\([0-9-]*\)".*/\1/p' "$tmp/group" | head -n 1)
check "the sim makes a group with bob, carol and us" [ -n "$G" ]
check "... it reaches the chat list" wait_pane 'Vanish club'
curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"secs\":86400,\"by\":\"$B\"}" \
    "$ADMIN/admin/groups/$G/ephemeral" >"$tmp/geph" 2>&1
check "the route sets the group's timer" grep -q '"ephemeral":86400' "$tmp/geph"
tm send-keys -t wachat C-n
tm send-keys -t wachat -l 'Vanish'
tm send-keys -t wachat Enter
check "the group opens" wait_pane '│ *Vanish club'
check "bob's change is an event line in the group" \
    wait_pane 'bob turned on disappearing messages: 24 hours'
check "... the group's bar says it" \
    wait_pane '│ *Vanish club +disappearing: 24 hours'
failed_now && show
tm send-keys -t wachat M-h
check "Alt-h in the group asks too" \
    wait_panes 'Disappearing messages in' '1 for 24 hours, 2 for 7 days'
tm send-keys -t wachat 0
check "0: the server takes it (w:g2 not_ephemeral): our line" \
    wait_pane 'You turned off disappearing messages'
check "... the bar no longer says it" wait_gone 'disappearing: '
check "... the sim's group has it off" sh -c "curl -sf -m 30 \
    '$ADMIN/admin/groups/$G' | grep -q '\"ephemeral\":0'"
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

# The lines in German, as `wachat history` says them under de_DE.
LOC="$tmp/locale"
mkdir -p "$LOC/de/LC_MESSAGES"
msgfmt -o "$LOC/de/LC_MESSAGES/wachat.mo" "$s/po/de.po" 2>"$tmp/msgfmt"
env LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 WACHAT_LOCALEDIR="$LOC" \
    "$W" history "+$B" --data-dir "$tmp/data" >"$tmp/hist-de" 2>&1
check "German: bob's change" grep -q \
    'bob hat verschwindende Nachrichten eingeschaltet: 7 Tage' "$tmp/hist-de"
check "... ours" grep -q \
    'Sie haben verschwindende Nachrichten eingeschaltet: 7 Tage' "$tmp/hist-de"
check "... turned off" grep -q \
    'bob hat verschwindende Nachrichten ausgeschaltet' "$tmp/hist-de"
failed_now && diag "$tmp/hist-de"
finish_sim_tmux
