#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The message kinds other clients drop (issue 20), in a real terminal:
# wachat in a tmux pane against wachat-sim, linked as alice.  Bob's phone
# sends (POST /admin/mock-phone/send-kind, and send-media with
# "wrap":"view_once") a location, a live location and two updates of it,
# one contact card and a message of three cards, a text with a link
# preview, a view-once photo and a kind wachat does not show.  The pane
# says each as the issue asks (the OpenStreetMap link as an OSC 8
# hyperlink; the live location updated in place; the card's numbers;
# the preview's title and description under the text; "View once
# photo"; a sentence for the unknown kind, and its field in the log),
# Alt-i on a card opens a chat with its number, and wachat history and
# export say what each is; the view-once photo's caption is nowhere.
# TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
. "${top_srcdir:-.}/tests/thumbs19-lib.sh"
need curl python3 cjpeg

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# kind JSON-MEMBERS: bob's phone sends us a message of that kind
# (send-kind; media, send-media: tests/thumbs19-lib.sh).
kind() {
	curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"from_pn\":\"$B\",\"to\":\"$AJ\",$1}" \
	    "$ADMIN/admin/mock-phone/send-kind" >>"$tmp/sent" 2>&1
}
check "the test's JPEG is made" make_thumb

rm -f "$tmp/status"
tm new-session -d -s wachat -x 160 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
    echo \$? >'$tmp/status'"
tm pipe-pane -o -t wachat "cat >>'$tmp/out'"
link_and_connect

E=$(printf '\033')
# has REGEX: what wachat wrote, its lines joined, matches REGEX.
has() {
	tr -d '\n' <"$tmp/out" | grep -Eq -- "$1"
}
# count REGEX: how many lines of the pane match it.
count() {
	capture
	grep -cE -- "$1" "$tmp/pane"
}

OSM='https://www.openstreetmap.org/?mlat=52.516275&mlon=13.377704#map=16/52.516275/13.377704'
OSM_RE='https://www\.openstreetmap\.org/\?mlat=52\.516275&mlon=13\.377704#map=16/52\.516275/13\.377704'
kind '"kind":"location","lat":52.516275,"lon":13.377704,"name":"Brandenburger Tor","address":"Pariser Platz, 10117 Berlin"'
check "the route sends the location" grep -q '"id":"3EB0' "$tmp/sent"
check "the chat list previews it in words" \
    wait_pane 'Location: Brandenburger Tor'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ *bob [0-9]{2}:[0-9]{2}'
check "the location: its name" wait_pane '│ +Location: Brandenburger Tor$'
check "... its address" wait_pane '│ +Pariser Platz, 10117 Berlin$'
check "... its coordinates" wait_pane '│ +52\.516275, 13\.377704$'
check "... the OpenStreetMap link" wait_pane "│ +$OSM_RE\$"
check "... written as an OSC 8 hyperlink over its cells" \
    wait_for has "${E}]8;;$OSM_RE$E\\\\$OSM_RE$E]8;;$E\\\\"
failed_now && show

kind '"kind":"live","lat":48.1,"lon":11.5,"caption":"on my way","seq":1'
check "a live location: says it is live and when it was updated" \
    wait_pane '│ +Live location \(live, updated [0-9]{2}:[0-9]{2}\)$'
check "... its caption and coordinates" wait_pane '│ +48\.100000, 11\.500000$'
kind '"kind":"live","lat":48.2,"lon":11.6,"caption":"on my way","seq":2'
check "an update: the new coordinates" wait_pane '│ +48\.200000, 11\.600000$'
check "... in place: the old ones are gone" \
    wait_gone '48\.100000, 11\.500000'
check "... one live location row, not two" \
    [ "$(count 'Live location \(live')" = 1 ]
kind '"kind":"live","lat":48.3,"lon":11.7,"caption":"on my way","seq":3'
check "a second update, in place too" wait_pane '│ +48\.300000, 11\.700000$'
check "... still one row" [ "$(count 'Live location \(live')" = 1 ]
grep -c '"id":"3EB0' "$tmp/sent" >"$tmp/nsent"
failed_now && show

VC1='BEGIN:VCARD\nVERSION:3.0\nFN:Ana Lima\nTEL;type=CELL;waid=4915112345678:+49 151 12345678\nEND:VCARD'
kind "\"kind\":\"contact\",\"name\":\"Ana\",\"vcard\":\"$VC1\""
check "one contact card: its name" wait_pane '│ +Contact card: Ana Lima$'
check "... its number" wait_pane '│ +\+49 151 12345678$'
# three cards: Ben has two numbers (one folded over two lines, one with
# an escaped comma), Eve's name carries an escape sequence
VB='BEGIN:VCARD\nVERSION:3.0\nFN:Ben\\, Jr.\nTEL;waid=4917600000001:+49 176 0000\n 0001\nitem1.TEL;TYPE=HOME:+49 30 9999999\nEND:VCARD'
VE='BEGIN:VCARD\nVERSION:3.0\nFN:Eve\u001b[31m\nTEL:+1 555 0100\nEND:VCARD'
VX='BEGIN:VCARD\nFN:Nobody\nEND:VCARD'
kind "\"kind\":\"contacts\",\"name\":\"3 contacts\",\"cards\":[{\"name\":\"Ben\",\"vcard\":\"$VB\"},{\"name\":\"Eve\",\"vcard\":\"$VE\"},{\"name\":\"X\",\"vcard\":\"$VX\"}]"
check "several cards: how many" wait_pane '│ +Contact cards \(3\):$'
check "... Ben's name unescaped" wait_pane '│ +• Ben, Jr\.$'
check "... his folded number, numbered" wait_pane '│ +1\. \+49 176 00000001$'
check "... his second number" wait_pane '│ +2\. \+49 30 9999999$'
check "... Eve's name without its escape" wait_pane '│ +• Eve.\[31m$'
check "... her number" wait_pane '│ +3\. \+1 555 0100$'
check "... a card without a number: its name only" wait_pane '│ +• Nobody$'
check "no escape sequence from a card reached the terminal" \
    sh -c "! tr -d '\\n' <'$tmp/out' | grep -q \"Eve$(printf '\033')\""
failed_now && show

kind "\"kind\":\"preview\",\"text\":\"look at https://example.org/x\",\"url\":\"https://example.org/x\",\"title\":\"Example Domain\",\"description\":\"This domain is for use in examples.\",\"thumbnail\":\"$tmp/t.jpg\""
check "a link preview: the text" wait_pane '│ +look at https://example\.org/x$'
check "... the title under it" wait_pane '│ +▎ Example Domain$'
check "... the description" \
    wait_pane '│ +▎ This domain is for use in examples\.$'
check "... its JPEG thumbnail drawn under the text, above the title" \
    wait_thumb 'look at https://example' 6 'Example Domain'

media '"media":"image","caption":"secret caption","size":1234,"wrap":"view_once"'
check "a view-once photo: said as one, with its type" \
    wait_pane '│ +View once photo$'
check "... its caption is not shown" pane_lacks 'secret caption'

kind '"kind":"other","field":75'
check "a kind wachat does not show: a sentence of what it is" \
    wait_pane '│ +An event invitation \(wachat cannot show it yet\)$'
check "... never its type's name" pane_lacks 'eventMessage'
check "... the log counts it by its field, no content" \
    wait_grep "$LOG" 'a message of a kind not shown: Message field 75 \(eventMessage\)'
failed_now && show

# Alt-i on a card: one number opens its chat; three ask which.
tm send-keys -t wachat Up Up Up Up
check "Up selects the cards: the line over the input offers Alt-i" \
    wait_pane 'Alt-c copy  Alt-i chat  Esc back'
tm send-keys -t wachat M-i
check "Alt-i on three numbers asks which" \
    wait_pane 'Chat with which number on the card\? 1 to 3'
tm send-keys -t wachat 2
check "2 opens a new chat with Ben's second number (its bar)" \
    wait_pane '│ \+49309999999 *$'
failed_now && show
tm send-keys -t wachat C-n
tm send-keys -t wachat -l bob
tm send-keys -t wachat Enter
check "back in bob's chat" wait_pane 'Contact card: Ana Lima'
tm send-keys -t wachat Up Up Up Up Up
check "Up selects Ana's card" wait_pane 'Alt-c copy  Alt-i chat'
tm send-keys -t wachat M-i
check "Alt-i on her card opens a chat with her waid (its bar)" \
    wait_pane '│ \+4915112345678 *$'
failed_now && show

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "history: the location, its link" grep -q "bob: Location: Brandenburger Tor" "$tmp/hist"
check "... the link" grep -qF "$OSM" "$tmp/hist"
check "... the live location once, with its last coordinates" \
    sh -c "[ \$(grep -c 'Live location' '$tmp/hist') = 1 ] && grep -q '48.300000, 11.700000' '$tmp/hist'"
check "... the card" grep -q 'bob: Contact card: Ana Lima' "$tmp/hist"
check "... the view-once photo, as one" grep -q 'bob: View once photo$' "$tmp/hist"
check "... the unknown kind in words" grep -q 'bob: An event invitation' "$tmp/hist"
failed_now && diag "$tmp/hist"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" export "+$B" --format jsonl \
    --data-dir "$tmp/data" >"$tmp/export" 2>&1
check "export: the location's fields" grep -q \
    '"kind":"rich","text":"Location: Brandenburger Tor\\nPariser Platz, 10117 Berlin\\n52.516275, 13.377704\\nhttps://www.openstreetmap.org/?mlat=52.516275&mlon=13.377704#map=16/52.516275/13.377704","rich":{"type":"location","fields":\[\["lat","52.516275"\],\["lon","13.377704"\]' \
    "$tmp/export"
check "... the view-once photo: its type only, no path, no content" grep -q \
    '"kind":"rich","text":"View once photo","rich":{"type":"viewonce","fields":\[\["media","image"\]\]}' \
    "$tmp/export"
check "... its caption is nowhere in the export" \
    sh -c "! grep -q 'secret caption' '$tmp/export' '$tmp/hist'"
check "... no media row for it (no path, no download)" \
    sh -c "! grep -q '\"media\":{\"type\":\"image\"' '$tmp/export'"
failed_now && diag "$tmp/export"
finish_sim_tmux
