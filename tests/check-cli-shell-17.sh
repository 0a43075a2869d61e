#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17's shell, as a user runs it over SSH (doc/wachat.1,
# SUBCOMMANDS), on a database made by tests/cli-db-fill17: wachat unread
# lists only the chats with unread messages (text and JSON) and says when
# there are none; export writes text when no --format is given; a message
# of three lines prints as three lines, the next ones indented under the
# name, its escape sequence inert; a search that finds nothing says so;
# search takes the screen's filters among its words: from:NAME (a unique
# part of a contact's name), from:+NUMBER, from:me, in:CHAT (several
# words in quotes, or as one argument), after:DATE, before:DATE; a name
# of several people lists them (exit 4), nobody by that name exits 2, a
# date that is none and filters without a word are usage errors; --help
# names them, in German too.
# TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill17
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..1"
	echo "not ok 1 - python3 is there (sh tools/setup.sh installs it)"
	exit 1
fi
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
d=$tmp/data/wachat
if ! "$fill" fill "$d" 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill17: $(cat "$tmp/fill.err")"
	exit 1
fi

n=0
fails=0
echo "1..21"
ok() {	# ok DESCRIPTION: the last check passed when $? is 0
	st=$?
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" 2>/dev/null | head -n 20
		fails=$((fails + 1))
	fi
}
run() {	# run WANT_STATUS ARGS...: wachat into $tmp/out, $tmp/err
	want=$1
	shift
	"$w" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || { echo "# status $got, want $want" >>"$tmp/err"; return 1; }
}
has() {	# has TEXT: a line of $tmp/out is exactly TEXT
	grep -qxF -- "$1" "$tmp/out"
}

# --- unread
run 0 unread && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
    sed -n 1p "$tmp/out" | grep -q '^2020-01-01 00:04  Ana <15550000001@s.whatsapp.net> \[2 unread\]: are you there?$' &&
    sed -n 2p "$tmp/out" | grep -q '^2020-01-01 00:02  Lunch Crew <120363000000000009@g.us> \[1 unread\]' &&
    ! grep -q Bob "$tmp/out"
ok "unread lists the chats with unread messages, newest first, not the read one"
run 0 unread --json && python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert [(x["name"], x["unread"]) for x in c] == [("Ana", 2), ("Lunch Crew", 1)], c
' "$tmp/out"
ok "unread --json: one object per chat with its unread count"
run 1 unread Ana && grep -q "takes no argument" "$tmp/err"
ok "unread takes no argument"
rm -rf "$tmp/empty" && mkdir -m 700 "$tmp/empty" && "$fill" add "$tmp/empty/wachat" X1 hi 2>/dev/null
# (a data dir whose one chat is read: its message marked as read here)
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE chat SET unread = 0"); c.commit()
' "$tmp/empty/wachat/wachat.db"
run 0 unread --data-dir "$tmp/empty/wachat" && [ ! -s "$tmp/out" ] &&
    grep -qx "wachat: no unread messages" "$tmp/err"
ok "unread with nothing unread prints no chat and says so on stderr (exit 0)"

# --- multi-line messages
run 0 history Ana && [ "$(cat "$tmp/out")" = "2020-01-01 00:03  Ana: first line
                  second line
                  third �[31mline
2020-01-01 00:04  Ana: are you there?" ]
ok "history prints a message's lines as lines, the next ones indented, escapes inert"
run 0 history Ana --json && python3 -c '
import json, sys
m = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(m) == 2 and m[0]["text"] == "first line\nsecond line\nthird \x1b[31mline", m
' "$tmp/out"
ok "history --json keeps the line breaks in one string, one object a message"

# --- export's default
run 0 export Ana && has "2020-01-01 00:03:00  Ana: first line" &&
    has "                     second line" && [ "$(wc -l <"$tmp/out")" -eq 4 ] &&
    cp "$tmp/out" "$tmp/txt" && run 0 export Ana --format txt &&
    cmp -s "$tmp/out" "$tmp/txt"
ok "export without --format writes text, as --format txt does"

# --- search
run 2 search zanzibar && [ ! -s "$tmp/out" ] &&
    grep -qx "wachat: no message matches" "$tmp/err"
ok "search that finds nothing says so in a line (exit 2)"
run 0 search lunch && [ "$(wc -l <"$tmp/out")" -eq 2 ] && [ ! -s "$tmp/err" ]
ok "search that finds something says nothing more"

# --- search's filters
run 0 search lunch from:Carol && [ "$(cat "$tmp/out")" = "2020-01-01 00:01  Lunch Crew  Carol: lunch at noon" ]
ok "search from:NAME: only that person's messages"
run 0 search lunch from:me && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
    grep -q 'Lunch Crew  .*: lunch sounds good$' "$tmp/out" &&
    run 0 search from:car lunch --marks && grep -q 'Carol: \*lunch\* at noon$' "$tmp/out" &&
    run 0 search line from:+15550000001 && grep -q 'Ana: first line' "$tmp/out"
ok "search from:me, from: a part of a name and from:+NUMBER"
run 0 search 'in:"Lunch Crew"' lunch && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
    cp "$tmp/out" "$tmp/in" && run 0 search 'in:Lunch Crew' lunch &&
    cmp -s "$tmp/out" "$tmp/in" && run 0 search 'lunch in:"Lunch Crew" from:Carol' &&
    [ "$(wc -l <"$tmp/out")" -eq 1 ] && run 2 search lunch in:Ana
ok "search in:CHAT, a name of two words quoted or as one argument, the whole query as one"
run 0 search lunch after:2020-01-01T00:02Z && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
    grep -q 'sounds good$' "$tmp/out" &&
    run 0 search lunch before:2020-01-01T00:02Z && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
    grep -q 'at noon$' "$tmp/out" && run 0 search lunch after:2020 &&
    [ "$(wc -l <"$tmp/out")" -eq 2 ] && run 2 search lunch after:2020-02 &&
    run 2 search lunch before:2019
ok "search after:DATE and before:DATE (YYYY, YYYY-MM and ISO 8601 too)"
run 1 search lunch after:2020-13 && grep -qF "'2020-13' is not a date" "$tmp/err"
ok "search: a date that is none is a usage error that says so"
run 2 search lunch from:nobody && grep -qx "wachat: nobody named 'nobody'" "$tmp/err"
ok "search from: a name of nobody exits 2 and says so"
run 4 search lunch from:o && grep -q "names several people" "$tmp/err" &&
    grep -q '  Bob  15550000002@s.whatsapp.net' "$tmp/err" &&
    grep -q '  Carol  15550000003@s.whatsapp.net' "$tmp/err"
ok "search from: a part of several names lists them (exit 4)"
run 1 search from:Carol && grep -q "no word to search for" "$tmp/err"
ok "search: filters without a word are a usage error"
run 0 search lunch from:Carol --json && python3 -c '
import json, sys
h = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(h) == 1 and h[0]["sender_name"] == "Carol", h
' "$tmp/out"
ok "search --json takes the filters too"
run 0 search 'FROM:Carol' lunch && [ "$(wc -l <"$tmp/out")" -eq 1 ]
ok "search: a filter's key in capitals"

# --- --help
run 0 --help && grep -qxF '  wachat unread [--json]              the chats with unread messages' "$tmp/out" &&
    grep -qF 'from:NAME, from:+NUMBER, from:me,' "$tmp/out" &&
    grep -qF '  wachat export CHAT [--format txt|jsonl]' "$tmp/out"
ok "--help names unread, search's filters and export's default"
mkdir -p "$tmp/locale/de/LC_MESSAGES" &&
    msgfmt -c -o "$tmp/locale/de/LC_MESSAGES/wachat.mo" "${top_srcdir:-.}/po/de.po" &&
    env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$tmp/locale" \
    "$w" --help >"$tmp/out" 2>"$tmp/err" &&
    grep -qxF '  wachat unread [--json]              die Chats mit ungelesenen Nachrichten' "$tmp/out" &&
    grep -qF 'zuerst; unter den Wörtern Filter: from:NAME,' "$tmp/out" &&
    grep -qF 'Die Datenbank lesen (nur lesend, auch während wachat läuft):' "$tmp/out" &&
    ! grep -q 'Reading the database\|the chats with unread' "$tmp/out"
ok "--help under LANG=de_DE.UTF-8 says the subcommands in German"

exit $((fails != 0))
