#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The read-only subcommands as a user runs them (doc/wachat.1,
# SUBCOMMANDS): wachat chats, history, search and export on a database
# made by tests/cli-db-fill through the store, in text and as JSON lines
# (each line checked by python3's json module, which rejects invalid
# UTF-8 and raw control characters); a chat named by JID, number (through
# the PN-LID mapping), name and unique part of a name, or ambiguously;
# dates; the exit statuses; a hostile message's escape sequences inert;
# and every subcommand again while another process holds a write
# transaction open on the same database (WAL: the read succeeds and does
# not see the uncommitted message).  TAP.
b=${top_builddir:-.}
w=$b/wachat
fill=$b/tests/cli-db-fill
tmp=$(mktemp -d) || exit 1
holder=
cleanup() {
	if [ -n "$holder" ]; then
		exec 9>&-
		wait "$holder" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
for t in python3 mkfifo; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "1..1"
		echo "not ok 1 - the $t command is there (sh tools/setup.sh installs it)"
		exit 1
	fi
done
TZ=UTC LC_ALL=C.UTF-8
export TZ LC_ALL
# No settings file of the user's: an empty HOME.
HOME=$tmp/home XDG_CONFIG_HOME= XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -m 700 "$tmp/home" "$tmp/data"
d=$tmp/data/wachat
if ! "$fill" fill "$d" 2>"$tmp/fill.err"; then
	echo "Bail out! cli-db-fill: $(cat "$tmp/fill.err")"
	exit 1
fi

n=0
fails=0
echo "1..51"
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
json_ok() {	# every line of $tmp/out is a JSON object; at least $1 lines
	python3 -c '
import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        s = line.decode("utf-8")          # strict: invalid UTF-8 fails
        o = json.loads(s)                 # strict: raw controls fail
        assert isinstance(o, dict), s
        n += 1
assert n >= int(sys.argv[2]), n
' "$tmp/out" "$1"
}
has() {	# has TEXT: a line of $tmp/out is exactly TEXT
	grep -qxF -- "$1" "$tmp/out"
}

# --- chats
run 0 chats && has '2021-02-04 00:03  Ana María <15550000001@s.whatsapp.net> [3 unread]: (message deleted)'
ok "chats lists each chat with its name, JID, unread count and preview"
sed -n 1p "$tmp/out" | grep -q '^2021-02-04 00:03  Ana María <' &&
    sed -n 2p "$tmp/out" | grep -q '^2020-10-27 00:00  Café Society <' &&
    sed -n 5p "$tmp/out" | grep -q '^ *Team B <'
ok "chats puts the newest activity first"
cp "$tmp/out" "$tmp/chats-default"
run 0 --data-dir "$tmp/data/wachat" chats && cmp -s "$tmp/out" "$tmp/chats-default" &&
    run 0 chats --data-dir "$tmp/data/wachat" && cmp -s "$tmp/out" "$tmp/chats-default"
ok "--data-dir works before the subcommand's name as after it"
run 1 chats --bogus && [ "$(wc -l <"$tmp/err")" -le 2 ]
ok "an unknown option is said in a line or two, not the whole help"
run 0 chats --json && json_ok 5 &&
    python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
a = [x for x in c if x["jid"] == "15550000001@s.whatsapp.net"][0]
assert a["name"] == "Ana María" and a["unread"] == 3, a
assert a["time"] == "2021-02-04T00:03:00Z", a
' "$tmp/out"
ok "chats --json: one valid JSON object per chat, with its fields"

# --- history
run 0 history 15550000001@s.whatsapp.net --limit 3 &&
    [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
    has '2021-02-04 00:01  You: Sí! a las 10' &&
    has '2021-02-04 00:03  Ana María: (message deleted)'
ok "history CHAT (a JID) --limit 3: the newest three, oldest first"
run 0 history "+1 555 000 0001" --limit 1 &&
    has '2021-02-04 00:03  Ana María: (message deleted)'
ok "history takes a phone number as people write it"
run 0 history +15550000002 && has '2020-07-19 00:00  Bob: see you at the station'
ok "history finds a number's chat under its LID"
run 0 history "café soc" &&
    has '2020-10-27 00:00  Carol: Who brings the croissants? [👍 Bob, ❤ You]' &&
    has '2020-10-27 00:00  Bob: I will bring them (edited)'
ok "history takes a unique part of a chat's name; group senders named"
run 0 history "ANA MARíA" --limit 1 &&
    has '2021-02-04 00:03  Ana María: (message deleted)'
ok "history takes a push name in another case (ASCII letters)"
run 4 history Tea && grep -q "names 2 chats" "$tmp/err" &&
    grep -q "120363000000000010@g.us" "$tmp/err" &&
    grep -q "120363000000000011@g.us" "$tmp/err"
ok "history: a name of two chats exits 4 and lists both"
run 0 history Team --limit 1 && has '2020-04-10 00:00  Carol: standup moved'
ok "history: an exact name wins over a longer one"
run 2 history Nobody && grep -qx "wachat: no chat 'Nobody'" "$tmp/err"
ok "history: an unknown chat exits 2"
run 2 history 15559999999@s.whatsapp.net
ok "history: an unknown JID exits 2"
run 0 history Ana --since 2020-01-01T04:57:00Z --limit 2 &&
    [ "$(cat "$tmp/out")" = "2020-01-01 04:57  You: history line 297
2020-01-01 04:58  Ana María: history line 298" ]
ok "history --since (ISO 8601 UTC): from that time on, oldest first"
run 0 history Ana --since "2020-01-01T05:57+01:00" --limit 1 &&
    has '2020-01-01 04:57  You: history line 297'
ok "history --since with a UTC offset"
run 0 history Ana --since 2021-02-04 --limit 0 && [ "$(wc -l <"$tmp/out")" -eq 4 ]
ok "history --since DATE --limit 0: every message from that day on"
run 0 history Ana --limit 0 && [ "$(wc -l <"$tmp/out")" -eq 304 ]
ok "history --limit 0: the whole chat"
run 1 history Ana --since yesterday && grep -q "not a date" "$tmp/err"
ok "history --since refuses what is not a date (exit 1)"
run 1 history Ana --limit -3
ok "history --limit refuses a negative count"
run 1 history
ok "history without CHAT exits 1"
run 0 history Ana --json --limit 5 && json_ok 5
ok "history --json: valid JSON lines"

# --- hostile text
run 0 history Ana --limit 2 && ! grep -q "$(printf '\033')" "$tmp/out" &&
    ! grep -q "$(printf '\007')" "$tmp/out" &&
    ! grep -q "$(printf '\342\200\256')" "$tmp/out" &&
    ! grep -q "$(printf '\302\233')" "$tmp/out" &&
    grep -q 'evil �\[2J�\]52;c;SGVsbG8=� cafe �txt.exe�31m done' "$tmp/out"
ok "text output: ESC, BEL, a bidi override and C1 CSI come out inert"
run 0 history Ana --json --limit 2 && ! grep -q "$(printf '\033')" "$tmp/out" &&
    python3 -c '
import json, sys
m = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
t = [x["text"] for x in m if x["id"] == "A3"][0]
assert t.startswith("evil \x1b[2J\x1b]52;c;") and "\u202e" in t, repr(t)
assert "\ufffd31m" in t, repr(t)
' "$tmp/out"
ok "JSON output: the same text escaped, a reader gets it back (bad bytes U+FFFD)"

# --- search
run 0 search cafe && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
    has '2021-02-04 00:00  Ana María  Ana María: Quieres un café mañana?' &&
    ! grep -qF '*' "$tmp/out"
ok "search: 'cafe' finds 'café', newest first; in a pipe the text as it is"
run 0 search cafe --marks &&
    has '2021-02-04 00:00  Ana María  Ana María: Quieres un *café* mañana?'
ok "search --marks: the match marked *café* in a pipe too"
# on a terminal (script(1) gives it one) the match is marked
script -qec "\"$w\" search cafe" /dev/null </dev/null >"$tmp/out" 2>&1 &&
    grep -qF 'Ana María: Quieres un *café* mañana?' "$tmp/out"
ok "search on a terminal: the match marked"
run 1 chats --marks && grep -q 'an option of another subcommand' "$tmp/err"
ok "--marks is search's only (chats --marks: exit 1)"
run 0 --help && grep -qF '  wachat search WORDS... --marks' "$tmp/out"
ok "--help names search --marks"
run 0 search "ZANZI" && has '2020-01-01 00:07  Ana María  Ana María: history line 7 with the word zanzibar'
ok "search: a prefix in capitals finds an imported message"
run 0 search "line 7 zanzi" && cp "$tmp/out" "$tmp/quoted" &&
    run 0 search line 7 zanzi && cmp -s "$tmp/out" "$tmp/quoted" &&
    [ -s "$tmp/out" ]
ok "search: the words may follow unquoted (the same hits as quoted)"
run 0 search '"AND (NEAR* "' ; st=$?
[ "$st" -eq 0 ] || [ "$(cat "$tmp/out")" = "" ]
ok "search: quotes, operators and stars are never a syntax error"
run 1 search '"*()' && grep -q "no word to search for" "$tmp/err" &&
    run 1 search ''
ok "search: a query of only punctuation, or none, is a usage error that says so (exit 1)"
run 0 search croissants --chat "Café Society" && [ "$(wc -l <"$tmp/out")" -eq 1 ]
ok "search --chat: within one chat"
run 2 search croissants --chat Bob
ok "search --chat: nothing in another chat (exit 2)"
run 2 search "gone soon"
ok "search: a revoked message is not found"
run 0 search "bring" && run 2 search "promise"
ok "search: an edited message is found by its new text only"
run 0 search cafe --json && json_ok 2 && python3 -c '
import json, sys
h = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
for x in h:
    s = x["snippet"].encode("utf-8")
    a, b = x["match"]
    assert s[a:b].decode("utf-8").lower() in ("cafe", "café"), (s, a, b)
' "$tmp/out"
ok "search --json: match offsets name the matched word in the snippet"

# --- export
run 0 export Ana --format txt && [ "$(wc -l <"$tmp/out")" -eq 304 ] &&
    has '2021-02-04 00:01:00  You: Sí! a las 10'
ok "export --format txt: every message, with seconds"
run 0 export Ana --format jsonl && json_ok 304 &&
    [ "$(python3 -c '
import json, sys
ids = [json.loads(l)["id"] for l in open(sys.argv[1], encoding="utf-8")]
print(len(set(ids)), ids[0], ids[-1])' "$tmp/out")" = "304 HIST000 A4" ]
ok "export --format jsonl: every message once, oldest first"
run 0 export "Café Society" --format txt &&
    has "2020-10-27 00:00:02  You: [reply to Carol: \"Who brings the croissants?\"] me too" &&
    grep -q '  Carol: Who brings the croissants? \[👍 Bob, ❤ You\]$' "$tmp/out"
ok "export --format txt: a reply names what it quotes, reactions follow the text"
run 0 export "Café Society" --format jsonl &&
    [ "$(python3 -c '
import json, sys
m = {j["id"]: j for j in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
r = m["G1"].get("reactions", [])
print(m["G3"]["quoted_id"], m["G3"]["quoted_sender_name"], m["G3"]["quoted_text"],
      "|", ",".join(x["emoji"] + "=" + x["sender_name"] for x in r))' "$tmp/out")" = \
    "G1 Carol Who brings the croissants? | 👍=Bob,❤=You" ]
ok "export --format jsonl: the quoted message and the reactions with their senders"
run 0 export Ana && [ "$(wc -l <"$tmp/out")" -eq 304 ] &&
    has '2021-02-04 00:01:00  You: Sí! a las 10'
ok "export without --format writes text"
run 1 export Ana --format html
ok "export refuses an unknown format"

# --- while a writer holds the database
mkfifo "$tmp/fifo"
"$fill" hold "$d" <"$tmp/fifo" >"$tmp/hold.out" 2>"$tmp/hold.err" &
holder=$!
exec 9>"$tmp/fifo"
end=$(($(date +%s) + 60))
while ! grep -q holding "$tmp/hold.out" 2>/dev/null &&
    [ "$(date +%s)" -lt "$end" ]; do
	sleep 0.1
done
grep -q holding "$tmp/hold.out"
ok "another process holds a write transaction open"
run 0 chats && run 0 history Ana --limit 2 && run 0 export Bob --format txt
ok "chats, history and export read while it does"
run 0 search zanzibar && [ "$(wc -l <"$tmp/out")" -eq 1 ]
ok "search reads while it does, without its uncommitted message"
run 0 search zanzibar --json && json_ok 1
ok "search --json while it does"
exec 9>&-
wait "$holder"
holder=
[ -z "$(cat "$tmp/hold.err")" ]
ok "the writer ends cleanly afterwards"

# --- the database itself
run 3 chats --data-dir "$tmp/none" && grep -q "no database" "$tmp/err"
ok "no database: exit 3, said so"
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 999")
c.execute("UPDATE counter SET value = 999 WHERE name = ?", ("schema_version",))
c.commit()
' "$d/wachat.db"
run 3 chats && grep -q "written by a newer wachat (schema 999" "$tmp/err"
ok "a newer schema: exit 3 with a clear message, nothing changed"

exit $((fails != 0))
