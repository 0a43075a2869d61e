#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: the shell names the people a group message mentions
# as the screen does ("@Ana", not "@15550000001"), by their names known
# now; a number nobody is known by stays digits, and so does one that is
# part of a longer number; a 1:1 message's "@" is left as it is; JSON
# keeps the raw text.  On the database of tests/cli-db-fill17.  TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill17
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
d=$tmp/data/wachat
echo "1..5"
if ! "$fill" fill "$d" 2>"$tmp/fill.err" ||
    ! "$fill" add-group "$d" G9 "ask @15550000001 and @15550000002, not @15550000077 or @155500000019" 2>>"$tmp/fill.err" ||
    ! "$fill" add "$d" A9 "mail me @15550000002" 2>>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill17: $(cat "$tmp/fill.err")"
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
"$w" history "Lunch Crew" >"$tmp/out" 2>&1 &&
    grep -q 'Carol: ask @Ana and @Bob, not @15550000077 or @155500000019$' "$tmp/out"
ok "history: the group message names Ana and Bob, unknown numbers stay"
"$w" export "Lunch Crew" >"$tmp/out" 2>&1 &&
    grep -q 'Carol: ask @Ana and @Bob, not' "$tmp/out"
ok "export: likewise"
"$w" history "Lunch Crew" --json >"$tmp/out" 2>&1 &&
    grep -q '"text":"ask @15550000001 and @15550000002, not' "$tmp/out"
ok "history --json keeps the raw text"
"$w" history +15550000001 >"$tmp/out" 2>&1 &&
    grep -q 'Ana: mail me @15550000002$' "$tmp/out"
ok "a 1:1 message's @ is left as typed"
"$w" history "Lunch Crew" >"$tmp/out" 2>&1 &&
    ! grep -q '@15550000001 ' "$tmp/out"
ok "... and no known number is left as digits in the group"
[ "$fails" -eq 0 ]
