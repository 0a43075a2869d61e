#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Receiving media (issue 19, first piece: the metadata), in a real
# terminal: wachat in a tmux pane against wachat-sim, linked as alice.
# Bob's phone sends a photo with a caption, a voice note, a document (in
# a documentWithCaption wrapper) and a sticker (POST
# /admin/mock-phone/send-media); the message pane names each with its
# icon, word, size, dimensions or duration, file name and caption, and
# the chat list's preview names the newest.  After a restart in a
# locale that is not UTF-8 the icons and separators are ASCII; in German
# the words are German.  Then wachat history and wachat export --format
# jsonl name each item.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need curl

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# media JSON-MEMBERS: bob's phone sends us a media message.
media() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",$1}" \
	    "$ADMIN/admin/mock-phone/send-media" >>"$tmp/sent" 2>&1
}

# German from po/de.po, compiled here.
LOC="$tmp/locale"
mkdir -p "$LOC/de/LC_MESSAGES"
msgfmt -o "$LOC/de/LC_MESSAGES/wachat.mo" "$s/po/de.po" 2>>"$tmp/w.err"

# pane LANG: wachat in the pane in locale LANG.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 120 -y 30 \
	    "env -u LANGUAGE LANG=$1 LC_ALL=$1 WACHAT_LOCALEDIR='$LOC' \
	    TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}

pane C.UTF-8
link_and_connect

media '"media":"image","caption":"the beach at noon","size":123456,"width":1600,"height":1200'
check "the route sends the photo" grep -q '"id":"3EB0' "$tmp/sent"
check "the chat list previews it with its icon and word" \
    wait_pane '📷 Photo the beach at noon'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "the photo's line: icon, word, size, dimensions" \
    wait_pane '│ +📷 Photo · 123 KB · 1600×1200$'
check "... and its caption under it" wait_pane '│ +the beach at noon$'
failed_now && show

media '"media":"ptt","seconds":12,"size":20480'
check "a voice note: its duration and size" \
    wait_pane '│ +🎤 Voice message 0:12 · 20 KB$'
media '"media":"document","file_name":"report.pdf","size":2500000,"pages":12,"caption":"for Monday","wrap":"document_with_caption"'
check "a document in its caption wrapper: name, size, pages" \
    wait_pane '│ +📄 Document report\.pdf · 2\.5 MB · 12 pages$'
check "... and its caption" wait_pane '│ +for Monday$'
media '"media":"sticker","size":20480,"width":512,"height":512'
check "a sticker" wait_pane '│ +🌟 Sticker · 20 KB · 512×512$'
check "the chat list previews the newest: the sticker" \
    wait_pane '🌟 Sticker'
# a file name from the network does not reach the terminal raw
media '"media":"document","file_name":"evil\u001b[31m.pdf","size":10'
check "a file name's escape is not written raw" \
    wait_pane 'Document evil.\[31m\.pdf · 10 B'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

# Not UTF-8: ASCII icons and separators, the same words.
pane C
check "restarted in the C locale, it connects" wait_pane 'connected as'
tm send-keys -t wachat Tab
check "the photo's icon and separators are ASCII" \
    wait_pane '\[IMG\] Photo - 123 KB - 1600x1200$'
check "... the voice note's" wait_pane '\[MIC\] Voice message 0:12 - 20 KB$'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
tm kill-server 2>/dev/null

# German.
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	pane de_DE.UTF-8
	check "restarted in German, it connects" wait_pane 'verbunden als'
	tm send-keys -t wachat Tab
	check "in German: Foto" wait_pane '│ +📷 Foto · 123 KB · 1600×1200$'
	check "... Sprachnachricht" \
	    wait_pane '│ +🎤 Sprachnachricht 0:12 · 20 KB$'
	check "... Dokument and Seiten" \
	    wait_pane '│ +📄 Dokument report\.pdf · 2,5 MB · 12 Seiten$'
	failed_now && show
	tm send-keys -t wachat C-q
	st=$(exit_status)
	tm kill-server 2>/dev/null
else
	not_ok "the de_DE.UTF-8 locale is installed (tools/setup.sh)"
fi

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "history names the photo and its caption" \
    grep -q 'bob: \[Photo - 123 KB - 1600x1200\] the beach at noon$' \
    "$tmp/hist"
check "... the voice note" \
    grep -q 'bob: \[Voice message 0:12 - 20 KB\]$' "$tmp/hist"
check "... the document" grep -q \
    'bob: \[Document report\.pdf - 2\.5 MB - 12 pages\] for Monday$' \
    "$tmp/hist"
check "... the sticker" grep -q 'bob: \[Sticker - 20 KB - 512x512\]$' \
    "$tmp/hist"
failed_now && diag "$tmp/hist"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" export "+$B" --format jsonl \
    --data-dir "$tmp/data" >"$tmp/export" 2>&1
check "export's JSON names the document's media fields" grep -q \
    '"kind":"media","media":{"type":"document","mimetype":"application/pdf","size":2500000,"width":0,"height":0,"seconds":0,"pages":12,"animated":false,"file_name":"report.pdf","caption":"for Monday","download":"none","path":""}' \
    "$tmp/export"
check "... and the voice note's type" grep -q '"media":{"type":"ptt"' \
    "$tmp/export"
failed_now && diag "$tmp/export"
finish_sim_tmux
