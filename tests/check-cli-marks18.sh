#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: wachat chats shows the phone's marks.  Pinned chats first, the
# newest pin first, then by last message; "[pinned]", "[muted always]",
# "[muted until DATE]" (a mute that ended is none); the archived chats
# left out, and listed alone with --archived; in JSON pinned, archived,
# muted (now) and muted_until (as stored).  wachat unread keeps the
# archived ones, marked.  A chat marked unread (Alt-u) "[marked unread]",
# "marked_unread" in JSON, and listed by wachat unread; a group chat deleted (deleteChat) and back with
# a member's message named by its subject in the list and in history.
# On the databases of tests/cli-db-fill18 (marks, extra).  TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill18
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
d=$tmp/data/wachat
echo "1..19"
if ! "$fill" marks "$d" 3600 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill18: $(cat "$tmp/fill.err")"
	exit 1
fi
n=0
fails=0
ok() {
	st=$?
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/#   /' "$tmp/out" 2>/dev/null | head -n 20
		fails=$((fails + 1))
	fi
}
# The names in the order printed, one a line.
names() {
	sed -n 's/^[0-9 :-]*  \([A-Za-z]*\) <.*/\1/p' "$tmp/out" | tr '\n' ' '
}

"$w" chats >"$tmp/out" 2>&1 &&
    [ "$(names)" = "Bob Ana Carla Dora Emil Finn " ]
ok "chats: pinned first (Bob's pin newest), then by last message; no archived chat"
grep -q '  Bob <15550000002@s.whatsapp.net> \[pinned\]: bob wrote$' "$tmp/out" &&
    grep -q '  Ana <15550000001@s.whatsapp.net> \[1 unread\] \[pinned\]: ana writes$' "$tmp/out"
ok "... the pinned ones marked [pinned]"
grep -q '  Dora <[^>]*> \[3 unread\] \[muted always\]: dora writes$' "$tmp/out"
ok "... Dora's always-mute as [muted always]"
until=$(date -u -d "@$(( $(date +%s) + 3600 ))" '+%Y-%m-%d %H' 2>/dev/null)
grep -q "  Finn <[^>]*> \\[1 unread\\] \\[muted until $until:[0-9][0-9]\\]: finn writes\$" "$tmp/out"
ok "... Finn's mute as [muted until DATE] (an hour on, local time)"
grep -q '  Emil <[^>]*> \[2 unread\]: emil writes$' "$tmp/out"
ok "... Emil's mute, which ended an hour ago, not shown"
! grep -q 'Gina\|Hugo\|archived' "$tmp/out"
ok "... and the archived chats not listed"

"$w" chats --archived >"$tmp/out" 2>&1 && [ "$(names)" = "Gina Hugo " ] &&
    grep -q '  Gina <[^>]*> \[2 unread\] \[archived\]: gina writes$' "$tmp/out" &&
    grep -q '  Hugo <[^>]*> \[muted always\] \[archived\]: hugo wrote$' "$tmp/out"
ok "chats --archived: the archived ones alone, marked"

"$w" chats --json >"$tmp/out" 2>&1 &&
    grep -q '^{"type":"chat","jid":"15550000002@s.whatsapp.net","name":"Bob",.*"pinned":true,"archived":false,"muted":false,"muted_until":0,' "$tmp/out" &&
    grep -q '"name":"Dora",.*"unread":3,"pinned":false,"archived":false,"muted":true,"muted_until":-1,' "$tmp/out" &&
    grep -q '"name":"Emil",.*"muted":false,"muted_until":[0-9]\{13\},' "$tmp/out" &&
    grep -q '"name":"Finn",.*"muted":true,"muted_until":[0-9]\{13\},' "$tmp/out" &&
    [ "$(grep -c '"type":"chat"' "$tmp/out")" = 6 ]
ok "chats --json: pinned, archived, muted and muted_until; six chats"
"$w" chats --archived --json >"$tmp/out" 2>&1 &&
    grep -q '"name":"Gina",.*"archived":true,"muted":false,"muted_until":0,' "$tmp/out" &&
    grep -q '"name":"Hugo",.*"archived":true,"muted":true,"muted_until":-1,' "$tmp/out" &&
    [ "$(grep -c '"type":"chat"' "$tmp/out")" = 2 ]
ok "chats --archived --json: the two archived, archived true"

"$w" unread >"$tmp/out" 2>&1 &&
    grep -q '  Gina <[^>]*> \[2 unread\] \[archived\]' "$tmp/out" &&
    grep -q '  Dora <[^>]*> \[3 unread\] \[muted always\]' "$tmp/out"
ok "unread: the archived chats' unread too, marked"

"$w" unread --archived >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'an option of another subcommand' "$tmp/out"
ok "unread --archived: refused (exit 1)"

"$w" --help >"$tmp/out" 2>&1 && grep -q 'wachat chats \[--archived\] \[--json\]' "$tmp/out"
ok "--help names chats --archived"
mkdir -p "$tmp/locale/de/LC_MESSAGES" &&
    msgfmt -c -o "$tmp/locale/de/LC_MESSAGES/wachat.mo" "${top_srcdir:-.}/po/de.po" &&
    env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$tmp/locale" \
    "$w" --help >"$tmp/out" 2>&1 &&
    grep -qF '  wachat chats [--archived] [--json]  die Chats, angeheftete zuerst' "$tmp/out" &&
    grep -qF '                      oder als ungelesen' "$tmp/out"
ok "... in German too"
"$w" --help >"$tmp/out" 2>&1 &&
    grep -qF '                      pinned, muted (until when), archived or marked unread' "$tmp/out"
ok "--help names the marked unread mark"

# The user's own marks (tests/cli-db-fill18 extra), in a data dir of their own.
XDG_DATA_HOME=$tmp/data2
mkdir -m 700 "$tmp/data2"
if ! "$fill" extra "$tmp/data2/wachat" 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill18 extra: $(cat "$tmp/fill.err")"
	exit 1
fi
"$w" chats >"$tmp/out" 2>&1 &&
    grep -q '  Ivo <15550000011@s.whatsapp.net> \[marked unread\]: ivo wrote$' "$tmp/out" &&
    [ "$(grep -c 'marked unread' "$tmp/out")" = 1 ]
ok "chats: Ivo's chat, marked unread, as [marked unread]; no other"
grep -q '  Weekend hike ⛰ <120363000000000009@g.us> \[1 unread\]: Still there?$' "$tmp/out"
ok "... a group chat deleted, then back with a member's message, named by its subject"
"$w" chats --json >"$tmp/out" 2>&1 &&
    grep -q '"name":"Ivo",.*"unread":0,.*"muted_until":0,"marked_unread":true,' "$tmp/out" &&
    grep -q '"jid":"120363000000000009@g.us","name":"Weekend hike ⛰",.*"marked_unread":false,' "$tmp/out"
ok "chats --json: marked_unread true for Ivo, false for the group (named)"
"$w" unread >"$tmp/out" 2>&1 &&
    grep -q '  Ivo <15550000011@s.whatsapp.net> \[marked unread\]: ivo wrote$' "$tmp/out"
ok "unread: Ivo's chat, no unread message but marked unread, is listed"
"$w" history Weekend >"$tmp/out" 2>&1 &&
    grep -q '  Ana: Still there?$' "$tmp/out" && ! grep -q 'who comes' "$tmp/out"
ok "history Weekend: the group found by its subject, the deleted message gone"
exit $((fails != 0))
