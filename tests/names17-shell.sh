#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 12: the shell says "You" where the screen does, not
# "me": our messages in history and export, our reaction, the author of
# a quote we wrote (text and JSON), on the database of tests/cli-db-fill.
# TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
d=$tmp/data/wachat
echo "1..5"
if ! "$fill" fill "$d" 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill: $(cat "$tmp/fill.err")"
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
has() { grep -Fqx -- "$1" "$tmp/out"; }

"$w" history 15550000001@s.whatsapp.net --limit 3 >"$tmp/out" 2>&1 &&
    has '2021-02-04 00:01  You: Sí! a las 10'
ok "history: our message is 'You:', as on the screen"
"$w" history "café soc" >"$tmp/out" 2>&1 &&
    has '2020-10-27 00:00  Carol: Who brings the croissants? [👍 Bob, ❤ You]'
ok "history: our reaction is named 'You'"
"$w" export "Café Society" >"$tmp/out" 2>&1 &&
    has '2020-10-27 00:00:02  You: [reply to Carol: "Who brings the croissants?"] me too'
ok "export: our reply is 'You:'"
"$w" export "Café Society" --format jsonl >"$tmp/out" 2>&1 &&
    python3 -c '
import json, sys
m = {j["id"]: j for j in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
r = {x["emoji"]: x["sender_name"] for x in m["G1"].get("reactions", [])}
assert r.get("\u2764") == "You", r' "$tmp/out"
ok "export --format jsonl: our reaction's sender_name is You"
! grep -Eq '(^| )me: |❤ me\]' "$tmp/out" &&
    "$w" history "café soc" >"$tmp/out" 2>&1 &&
    ! grep -Eq '(^| )me: |❤ me\]' "$tmp/out"
ok "... and 'me' is said nowhere"
[ "$fails" -eq 0 ]
