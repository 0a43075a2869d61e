#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17's shell, as a user runs it over SSH (doc/wachat.1,
# SUBCOMMANDS), on a database made by tests/cli-db-fill17: wachat unread
# lists only the chats with unread messages (text and JSON) and says when
# there are none; export writes text when no --format is given; a message
# of three lines prints as three lines, the next ones indented under the
# name, its escape sequence inert; a search that finds nothing says so.
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
echo "1..9"
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
    sed -n 2p "$tmp/out" | grep -q '^2020-01-01 00:02  Crew <120363000000000009@g.us> \[1 unread\]' &&
    ! grep -q Bob "$tmp/out"
ok "unread lists the chats with unread messages, newest first, not the read one"
run 0 unread --json && python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert [(x["name"], x["unread"]) for x in c] == [("Ana", 2), ("Crew", 1)], c
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

exit $((fails != 0))
