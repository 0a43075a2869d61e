#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Downloading received media (issue 19), in a real terminal: wachat in a
# 160x40 tmux pane against wachat-sim (TLS, its media host), linked as
# alice.  Bob's phone sends a photo, a voice note, a document and a
# sticker (real files made here, POST /admin/media/send); each is
# downloaded with the download key (Alt-w) into download-dir: its line
# shows the path, the file's SHA-256 is the fixture's and the sim's
# fileSHA256.  The open key (Alt-l) runs open-command (a script that
# records its argv) with the path as one argument.  A URL expired (410)
# is recovered through the media retry (the phone uploads it again); a
# flipped byte in the served blob says "corrupt", leaves no file in the
# folder and the chat goes on; a wrong declared length and a size over
# max-media-size each say so (the latter asks the host nothing).  The
# save-as key (Alt-y) copies the file and will not write over one.
# wachat media refuses while the screen holds the data dir; once it
# quit, wachat media ... --out writes the same bytes; wachat history
# names the downloaded file's path, and wachat media of the photo the
# phone uploaded again asks the new direct path (no second retry).
# Restarted with auto-download image:1M, a photo downloads by itself, a
# sticker not.  Killed with SIGKILL while a download stalls, wachat
# finds the row it left "downloading" reset at its next start, and Alt-w
# downloads the file.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net

need openssl cjpeg opusenc cwebp python3 sqlite3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
. "${top_srcdir:-.}/tests/mediasend19-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# The fixtures: a photo, a voice note, a sticker (made with the
# encoders), and a document (the sim's own one-page PDF).
fx=$tmp/fx
mkdir -p "$fx"
python3 -c 'import sys
w, h = 48, 32
px = bytes(v for y in range(h) for x in range(w) for v in ((x * 255) // w, (y * 255) // h, 77))
open(sys.argv[1], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + px)' "$tmp/p.ppm"
cjpeg -quality 80 "$tmp/p.ppm" >"$fx/photo.jpg" 2>/dev/null
cwebp -quiet "$tmp/p.ppm" -o "$fx/sticker.webp" 2>/dev/null
media_ogg "$fx/voice.ogg"
for f in photo.jpg sticker.webp voice.ogg; do
	check "the fixture $f is made" test -s "$fx/$f" || exit 1
done

# open-command: a script that writes its argument count and each
# argument on a line of its own.
cat >"$tmp/open.sh" <<EOF
#!/bin/sh
{ echo "\$#"; for a in "\$@"; do printf '%s\n' "\$a"; done; } >"$tmp/opened.part"
mv "$tmp/opened.part" "$tmp/opened"
EOF
chmod 755 "$tmp/open.sh"

MD=$tmp/m
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 160 -y 40 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --ca-file '$tmp/cert.pem' --data-dir '$tmp/data' \
	    --qr-file '$tmp/qr' --download-dir '$MD' \
	    --open-command '$tmp/open.sh' --thumbnail-rows 0 $* \
	    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}

# send TYPE [FILE] [--KEY VALUE]...: bob's phone sends us a file; the
# sim's answer in $tmp/s (the message in .media), its id printed.
send() {
	ctl media-send $B $AJ "$@" >"$tmp/s" 2>&1
	json "$tmp/s" 'd["id"]'
}
# json FILE EXPR: a Python expression over the JSON in FILE (as d).
json() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}
sha() {
	sha256sum "$1" 2>/dev/null | cut -d' ' -f1
}
# msg ID EXPR: EXPR over the sim's media message ID (as m).
msg() {
	ctl media >"$tmp/media" 2>&1
	json "$tmp/media" '[m for m in d["messages"] if m["id"] == "'"$1"'" and m["dir"] == "sent"][0]'"$2"
}
# select_newest: Esc (alone: not as Alt, the screen waits 25 ms for
# more), then Up selects the newest message.
select_newest() {
	tm send-keys -t wachat Escape
	sleep 0.3
	tm send-keys -t wachat Up
	sleep 0.3
}

pane
link_and_connect

# 1. a photo
ID1=$(send image "$fx/photo.jpg" --caption "the beach")
check "the photo is sent (id $ID1)" test -n "$ID1"
check "the chat list previews it" wait_pane '📷 Photo the beach'
tm send-keys -t wachat Tab
check "Tab opens bob's chat: the photo's line" \
    wait_pane '│ +📷 Photo · [0-9.]+ (B|KB)'
select_newest
tm send-keys -t wachat M-w
P1="$MD/image-$ID1.jpg"
check "Alt-w downloads it: its line shows the path" wait_pane "│ +$P1\$"
check "... the file's SHA-256 is the photo's" \
    test "$(sha "$P1")" = "$(sha "$fx/photo.jpg")"
check "... and the fileSHA256 the sim sent" \
    test "$(sha "$P1")" = "$(msg "$ID1" '["file_sha256"]')"
check "... the media folder is 0700" \
    test "$(stat -c %a "$MD")" = 700
failed_now && show
tm send-keys -t wachat M-l
check "Alt-l runs open-command with the path as one argument" \
    wait_grep "$tmp/opened" "^$P1\$" 100
check "... and only that argument" test "$(head -n 1 "$tmp/opened")" = 1
check "... the line over the input says it" wait_pane "opening $P1"
rm -f "$tmp/opened"

# 2. a voice note, a document, a sticker
ID2=$(send audio "$fx/voice.ogg" --seconds 1)
check "a voice note arrives" wait_pane '│ +🎤 Voice message 0:01'
select_newest
tm send-keys -t wachat M-w
P2="$MD/ptt-$ID2.ogg"
check "Alt-w downloads the voice note" wait_pane "│ +$P2\$"
check "... with the voice note's bytes" \
    test "$(sha "$P2")" = "$(sha "$fx/voice.ogg")"
ID3=$(send document --file_name "notes.pdf" --caption "for Monday")
check "a document arrives" wait_pane '│ +📄 Document notes\.pdf'
select_newest
tm send-keys -t wachat M-w
P3="$MD/notes.pdf"
check "Alt-w downloads the document under its own name" \
    wait_pane "│ +$P3\$"
check "... with the bytes the sim sent" \
    test "$(sha "$P3")" = "$(msg "$ID3" '["file_sha256"]')"
ID4=$(send sticker "$fx/sticker.webp" --width 48 --height 32)
check "a sticker arrives" wait_pane '│ +🌟 Sticker'
select_newest
tm send-keys -t wachat M-l
P4="$MD/sticker-$ID4.webp"
check "Alt-l on a sticker not downloaded: downloaded, then opened" \
    wait_grep "$tmp/opened" "^$P4\$" 300
check "... with the sticker's bytes" \
    test "$(sha "$P4")" = "$(sha "$fx/sticker.webp")"
failed_now && show

# 3. an expired URL: the media retry
ID5=$(send image "$fx/photo.jpg" --caption "expired one")
check "a second photo arrives" wait_pane '│ +expired one$'
ctl media-expire "$ID5" 410 >"$tmp/x" 2>&1
check "its blob answers 410 now" test "$(json "$tmp/x" 'd["gone"]')" = True
select_newest
tm send-keys -t wachat M-w
P5="$MD/image-$ID5.jpg"
check "Alt-w: the phone uploads it again and it is downloaded" \
    wait_pane "│ +$P5\$"
check "... the sim saw one retry for it" \
    test "$(msg "$ID5" '["retries"]')" = 1
check "... with the photo's bytes" \
    test "$(sha "$P5")" = "$(sha "$fx/photo.jpg")"
failed_now && show

# 4. a flipped byte, a wrong length, a size over the cap
ID6=$(send image "$fx/photo.jpg" --caption "flipped" --flip_byte 1)
check "a photo with a flipped byte arrives" wait_pane '│ +flipped$'
select_newest
tm send-keys -t wachat M-w
check "Alt-w: its line says corrupt" wait_pane '│ +corrupt$'
check "... no file of it in the folder" \
    sh -c "! ls '$MD' | grep -q '$ID6'"
check "... and no temp file" sh -c "! ls -a '$MD' | grep -q wachat-dl"
LEN=$(wc -c <"$fx/photo.jpg" | tr -d ' ')
ID7=$(send image "$fx/photo.jpg" --caption "longer" \
    --declared_length $((LEN + 7)))
check "a photo declared 7 bytes longer arrives" wait_pane '│ +longer$'
select_newest
tm send-keys -t wachat M-w
check "Alt-w: its line says the length is wrong" \
    wait_pane '│ +corrupt: not the declared length$'
check "... no file of it in the folder" \
    sh -c "! ls -a '$MD' | grep -q -e '$ID7' -e wachat-dl"
ID8=$(send image "$fx/photo.jpg" --caption "huge" \
    --declared_length 3000000000)
check "a photo declared 3 GB arrives" wait_pane '│ +📷 Photo · 3\.0 GB'
select_newest
tm send-keys -t wachat M-w
check "Alt-w: its line says too big (max-media-size)" \
    wait_pane '│ +too big \(max-media-size\)$'
check "... and the media host was not asked for it" \
    test "$(ctl media >"$tmp/media" 2>&1; json "$tmp/media" '[b["downloads"] for b in d["blobs"] if b["msg_id"] == "'"$ID8"'"][0]')" = 0
ctl phone-send $B $AJ "still here" >/dev/null 2>&1
check "the chat goes on: bob's next text shows" wait_pane '│ +still here$'
failed_now && show

# 5. save-as: a copy, never over a file (the expired photo, four rows
# above bob's text)
select_newest
for i in 1 2 3 4; do tm send-keys -t wachat Up; done
sleep 0.3
tm send-keys -t wachat M-y
check "Alt-y on the downloaded photo asks where to save it" \
    wait_pane 'Save the file as'
echo keep >"$tmp/taken"
tm send-keys -t wachat -l "$tmp/taken"
tm send-keys -t wachat Enter
check "... a file there is not replaced" \
    wait_pane 'a file of that name is there: not replaced'
check "... and keeps its bytes" test "$(cat "$tmp/taken")" = keep
tm send-keys -t wachat C-u
tm send-keys -t wachat -l "$tmp/copy"
tm send-keys -t wachat Enter
check "... a new path: saved" wait_pane "saved as $tmp/copy"
check "... the copy has the photo's bytes" \
    test "$(sha "$tmp/copy")" = "$(sha "$P5")"
failed_now && show

# 6. the shell
"$W" media "+$B" "$ID2" --data-dir "$tmp/data" --out "$tmp/out.ogg" \
    >"$tmp/cli1" 2>&1
st=$?
check "wachat media while the screen runs: exit 7 (got $st)" [ "$st" = 7 ]
check "... saying a wachat has the data dir" \
    grep -q 'a wachat (pid [0-9]*) has this data dir open' "$tmp/cli1"
failed_now && diag "$tmp/cli1"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null
"$W" media "+$B" "$ID2" --url "$URL" --root-key "$ROOT_PUB" \
    --ca-file "$tmp/cert.pem" --data-dir "$tmp/data" \
    --download-dir "$MD" --out "$tmp/out.ogg" >"$tmp/cli2" 2>"$tmp/cli2e"
st=$?
check "wachat media ... --out: exit 0 (got $st)" [ "$st" = 0 ]
check "... its stdout is the path alone" \
    test "$(cat "$tmp/cli2")" = "$tmp/out.ogg"
check "... the message's recorded file is still the download-dir one" \
    test "$(sqlite3 -readonly "$tmp/data/wachat.db" "SELECT d.path FROM \
    media d JOIN message m ON d.msg = m.rowid WHERE m.id = '$ID2'" \
    2>/dev/null)" = "$P2"
check "... the same bytes as the voice note" \
    test "$(sha "$tmp/out.ogg")" = "$(sha "$fx/voice.ogg")"
failed_now && diag "$tmp/cli2e"
"$W" media "+$B" "$ID5" --url "$URL" --root-key "$ROOT_PUB" \
    --ca-file "$tmp/cert.pem" --data-dir "$tmp/data" \
    --download-dir "$MD" --out "$tmp/out5.jpg" >"$tmp/cli6" 2>&1
st=$?
check "wachat media of the photo the phone uploaded again: exit 0 (got $st)" \
    [ "$st" = 0 ]
check "... the photo's bytes" \
    test "$(sha "$tmp/out5.jpg")" = "$(sha "$fx/photo.jpg")"
check "... from the new direct path the retry gave: no second retry" \
    test "$(msg "$ID5" '["retries"]')" = 1
failed_now && diag "$tmp/cli6"
"$W" media "+$B" "$ID2" --url "$URL" --root-key "$ROOT_PUB" \
    --ca-file "$tmp/cert.pem" --data-dir "$tmp/data" \
    --out "$tmp/out.ogg" >"$tmp/cli3" 2>&1
st=$?
check "wachat media --out over a file: exit 5, not replaced (got $st)" \
    [ "$st" = 5 ]
"$W" media "+$B" "$ID6" --url "$URL" --root-key "$ROOT_PUB" \
    --ca-file "$tmp/cert.pem" --data-dir "$tmp/data" \
    --download-dir "$MD" >"$tmp/cli4" 2>&1
st=$?
check "wachat media of the flipped one: exit 11, corrupt (got $st)" \
    [ "$st" = 11 ] && grep -q 'corrupt' "$tmp/cli4"
"$W" media "+$B" "NOSUCHID" --data-dir "$tmp/data" >"$tmp/cli5" 2>&1
st=$?
check "wachat media of no such message: exit 2 (got $st)" [ "$st" = 2 ]
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "history names the photo's local path" grep -q "$P1" "$tmp/hist"
check "... and the document's" grep -q "$P3" "$tmp/hist"
failed_now && diag "$tmp/hist"

# 7. auto-download: photos up to 1 MiB come by themselves, the rest not
pane --auto-download image:1M
check "restarted with auto-download image:1M, it connects" \
    wait_pane 'connected as'
tm send-keys -t wachat Tab
ID9=$(send image "$fx/photo.jpg" --caption "by itself")
ID10=$(send sticker "$fx/sticker.webp")
check "a photo arrives and is downloaded with no key" \
    wait_pane "│ +$MD/image-$ID9.jpg\$"
check "... with the photo's bytes" \
    test "$(sha "$MD/image-$ID9.jpg")" = "$(sha "$fx/photo.jpg")"
check "the sticker after it arrives (the list previews it)" \
    wait_pane '🌟 Sticker +│'
sleep 2		# time for a download that must not come
check "... and, not an image, is not downloaded" \
    sh -c "! ls '$MD' | grep -q '$ID10'"
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

# 8. kill -9 during a download: the row it left "downloading" is reset
# at the next start, and the file can be downloaded again.
# dl_is ID N: the store's download state of message ID is N (store/
# store-media.h: 0 none, 1 downloading).
dl_is() {
	[ "$(sqlite3 -readonly "$tmp/data/wachat.db" "SELECT d.dl_state FROM \
	    media d JOIN message m ON d.msg = m.rowid WHERE m.id = '$1'" \
	    2>/dev/null)" = "$2" ]
}
ctl history-media-delay 60000 >/dev/null 2>&1
pane --auto-download image:1M
check "restarted with the media host stalled, it connects" \
    wait_pane 'connected as'
tm send-keys -t wachat Tab
ID11=$(send image "$fx/photo.jpg" --caption "killed mid-download")
check "a photo arrives and its download starts: downloading in the store" \
    wait_for dl_is "$ID11" 1
pid=$(pane_wachat_pid)
check "wachat is killed with SIGKILL during the download" \
    sh -c "[ -n '$pid' ] && kill -9 '$pid'"
st=$(exit_status)
check "... its exit status is the kill's (137, got ${st:-none})" [ "$st" = 137 ]
tm kill-server 2>/dev/null
ctl history-media-delay 0 >/dev/null 2>&1
check "... the store still says downloading" dl_is "$ID11" 1
pane
check "started again, it connects" wait_pane 'connected as'
check "... the row is reset: not fetched" wait_for dl_is "$ID11" 0
check "... the log says so" has_line "$LOG" '1 download\(s\) a stop left running: reset'
tm send-keys -t wachat Tab
check "... the photo shows in bob's chat" wait_pane '│ +killed mid-download$'
check "... its line does not say downloading" pane_lacks 'downloading'
select_newest
tm send-keys -t wachat M-w
P11="$MD/image-$ID11.jpg"
check "Alt-w downloads it now: its line shows the path" wait_pane "│ +$P11\$"
check "... with the photo's bytes" \
    test "$(sha "$P11")" = "$(sha "$fx/photo.jpg")"
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null
finish_sim_tmux
