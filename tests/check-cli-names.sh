#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Names that hide invisible characters, as the shell shows them
# (base/sanitize.h, doc/wachat.1 SUBCOMMANDS): on a database made by
# tests/cli-db-fill names, `wachat chats` and `wachat history` print
# "Alice" for a push name with a zero-width space and a BOM in it (so it
# cannot pass for another Alice), the number for a name made only of
# invisible characters, and keep the zero-width joiner of an emoji
# sequence; the JSON lines carry every hidden character escaped as
# \uXXXX, which a JSON reader decodes back to the name as sent.  TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! command -v python3 >/dev/null 2>&1; then
	echo "Bail out! python3 is not installed (sh tools/setup.sh installs it)"
	exit 1
fi
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
if ! "$fill" names "$tmp/data/wachat" 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill: $(cat "$tmp/fill.err")"
	exit 1
fi

t=0
fails=0
echo "1..6"
ok() {	# ok DESCRIPTION: the last check passed when $? is 0
	st=$?
	t=$((t + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $t - $1"
	else
		echo "not ok $t - $1"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" 2>/dev/null | head -n 20
		fails=$((fails + 1))
	fi
}
# hidden: whether $tmp/out holds U+200B, U+FEFF, U+2060 or U+3164 raw
hidden() {
	LC_ALL=C grep -q "$(printf '\342\200\213')\|$(printf '\357\273\277')\|$(printf '\342\201\240')\|$(printf '\343\205\244')" "$tmp/out"
}
zwj=$(printf 'Dev \360\237\221\251\342\200\215\360\237\222\273')

"$w" chats >"$tmp/out" 2>"$tmp/err" &&
    grep -q '  Alice <15550000001@s.whatsapp.net>' "$tmp/out" && ! hidden
ok "chats shows a push name without its zero-width space and BOM"
grep -q '  +15550000002 <15550000002@s.whatsapp.net>' "$tmp/out"
ok "chats shows the number for a name made of invisible characters only"
"$w" history Crew >"$tmp/out" 2>"$tmp/err" &&
    grep -qF "$zwj: shipit" "$tmp/out" && ! hidden
ok "history keeps the emoji's zero-width joiner and drops the word joiner"
"$w" history +15550000002 >"$tmp/out" 2>"$tmp/err" &&
    grep -q '+15550000002: hi$' "$tmp/out" && ! hidden
ok "history names a sender whose name shows nothing by the number"
"$w" chats --json >"$tmp/out" 2>"$tmp/err" && ! hidden &&
    grep -qF 'Al\u200bice\ufeff' "$tmp/out"
ok "chats --json escapes each hidden character as \\uXXXX"
python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
a = [x for x in c if x["jid"] == "15550000001@s.whatsapp.net"][0]
assert a["name"] == "Al\u200bice\ufeff", a
' "$tmp/out" >>"$tmp/err" 2>&1
ok "a JSON reader gets the name back as it was sent"
[ "$fails" -eq 0 ]
