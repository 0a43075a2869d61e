#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, sending media: wachat linked as alice in a 100x30 tmux pane
# against wachat-sim (TLS, its media host) sends bob, from the screen, a
# photo with a caption (the attach key, Ctrl-o; its path completed with
# Tab; a caption), a voice note (Alt-v; an Ogg Opus file made here with
# opusenc), a document and a sticker (a WebP made with cwebp), the photo
# as a reply too; bob's phone fetches and decrypts each: the sim's
# /admin/media shows it with decrypted_sha256 equal to the file's
# SHA-256, the message type, mimetype, ptt flag, dimensions, duration and
# waveform, and the stanza it came in with type "media" and the <enc>'s
# mediatype (protocol-features.md 1.7).  Alt-v on a JPEG says that a voice note is Ogg Opus only.
# The media host refusing uploads (its cap set to 1 byte): the message
# says "upload failed" with its failed tick and bob gets nothing; with
# the host back, Up and Ctrl-t send it, once.  An upload whose answer
# the host holds back (20 s): the message says "uploading N%"; wachat
# killed with SIGKILL then, started again: bob's phone receives the
# message exactly once, its blob kept in the data dir uploaded again
# and gone once sent.  wachat send CHAT --file (no terminal, to the
# running wachat): a document with --caption exits 0 and bob has it;
# --ptt with a JPEG exits 9 saying why; a file over max-media-size exits
# 9 before a byte is read; no file exits 2.  A file-picker-command (a
# script writing its pick to %f) run by Ctrl-o: its file is sent.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net

need openssl python3 cjpeg opusenc cwebp sha256sum
. "${top_srcdir:-.}/tests/tmux-lib.sh"
. "${top_srcdir:-.}/tests/mediasend19-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000002 bob $A >/dev/null 2>&1

# --- the fixtures, made here
fx=$tmp/fx
mkdir -p "$fx"
media_jpeg "$fx/photo.jpg"
python3 -c 'import sys
w = h = 64
px = bytes(v for y in range(h) for x in range(w) for v in (200, (x * 4) % 256, (y * 4) % 256))
open(sys.argv[1], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + px)' "$tmp/s.ppm"
cwebp -quiet "$tmp/s.ppm" -o "$fx/sticker.webp"
# two seconds: a loud tone, then a quiet one
python3 -c 'import math, struct, sys
sr = 16000
pcm = b"".join(struct.pack("<h", int((12000 if i < sr else 2000) * math.sin(2 * math.pi * 440 * i / sr))) for i in range(2 * sr))
open(sys.argv[1], "wb").write(b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " +
    struct.pack("<IHHIIHH", 16, 1, 1, sr, sr * 2, 2, 16) + b"data" + struct.pack("<I", len(pcm)) + pcm)' "$tmp/v.wav"
opusenc --quiet "$tmp/v.wav" "$fx/voice.ogg"
media_pdf "$fx/notes.pdf"
cp "$fx/notes.pdf" "$fx/report.pdf"
printf 'second copy\n' >>"$fx/report.pdf"
for f in photo.jpg sticker.webp voice.ogg notes.pdf report.pdf; do
	check "the fixture $f is made" test -s "$fx/$f" || exit 1
done

sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# got FILE [KEY=VALUE]...: bob's phone received a media message whose
# decrypted bytes are FILE's (decrypted_sha256), exactly one such, with
# each KEY (a field of /admin/media's message) equal to VALUE (numbers,
# true/false compared as text; KEY>N: a number above N).  What differs
# is in $tmp/got.why.
got() {
	ctl media >"$tmp/media.json" 2>&1 && python3 - "$tmp/media.json" \
	    "$BJ" "$(sha "$1")" "$@" >"$tmp/got.why" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
to, h = sys.argv[2], sys.argv[3]
ms = [m for m in d["messages"] if m["dir"] == "received" and
      m["to"] == to and m.get("decrypted_sha256") == h]
if len(ms) != 1:
    print("%d messages to %s decrypt to %s" % (len(ms), to, h))
    sys.exit(1)
m, bad = ms[0], []
for kv in sys.argv[5:]:
    if ">" in kv:
        k, v = kv.split(">", 1)
        if not int(m.get(k, 0)) > int(v):
            bad.append("%s=%r, want > %s" % (k, m.get(k), v))
        continue
    k, v = kv.split("=", 1)
    x = m.get(k)
    x = str(x).lower() if isinstance(x, bool) else str(x)
    if x != v:
        bad.append("%s=%r, want %r" % (k, x, v))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}
# received CAPTION: how many media messages bob's phone received with
# CAPTION.
received() {
	ctl media 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(sum(1 for m in d["messages"] if m["dir"] == "received" and
          m["to"] == sys.argv[1] and m["caption"] == sys.argv[2]))' "$BJ" "$1"
}
# uploads: the media host's count of uploads taken.
uploads() {
	ctl media 2>/dev/null | python3 -c 'import json, sys
print(json.load(sys.stdin)["uploads"])'
}
# refused_uploads: ... of uploads refused.
refused_uploads() {
	ctl media 2>/dev/null | python3 -c 'import json, sys
print(json.load(sys.stdin)["uploads_refused"])'
}
# kept_count: how many times the log says a kept blob was uploaded
# without sealing it again.
kept_count() {
	grep -c 'its sealed blob kept, not sealed again' "$LOG" 2>/dev/null
}
# no_blob: the data dir holds no upload blob (wachat-ul-*).
no_blob() {
	[ -z "$(ls "$tmp/data" | grep '^wachat-ul-')" ]
}
has_blob() {
	! no_blob
}
above() {	# above CMD N: CMD prints a number above N
	[ "$($1)" -gt "$2" ] 2>/dev/null
}
# type_path KEY DIR PREFIX: press KEY, type DIR/PREFIX and Tab (the
# file name completed), then Enter.
type_path() {
	tm send-keys -t wachat "$1"
	wait_pane 'its path \(Tab completes\)' >/dev/null ||
	    wait_pane 'Ogg Opus file.s path' >/dev/null
	tm send-keys -t wachat -l "$2/$3"
	tm send-keys -t wachat Tab
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
ctl phone-send $B $AJ "hello from bob" >/dev/null 2>&1
check "bob's message comes in" wait_pane 'hello from bob'
tm send-keys -t wachat Tab
check "bob's chat opens" wait_pane 'bob'

# --- a photo with a caption: Ctrl-o, the path completed with Tab
type_path C-o "$fx" pho
check "Ctrl-o asks for a path; Tab completes photo.jpg" \
    wait_pane "> $fx/photo\\.jpg"
failed_now && show
tm send-keys -t wachat Enter
check "... Enter asks for a caption" wait_pane 'A caption \(may be empty\)'
tm send-keys -t wachat -l "A photo"
tm send-keys -t wachat Enter
check "bob's phone receives the photo in a stanza of type media, mediatype image: type image, image/jpeg, 64x48, a thumbnail, the caption, the file's SHA-256 decrypted" \
    wait_for got "$fx/photo.jpg" type=image mediatype=image \
    stanza_type=media stanza_mediatype=image \
    mimetype=image/jpeg width=64 height=48 "thumbnail_bytes>0" \
    "caption=A photo" ptt=false length="$(stat -c %s "$fx/photo.jpg")"
failed_now && diag "$tmp/got.why"
check "... the pane shows it, sent" wait_pane 'A photo'
failed_now && show

# --- Alt-v on a JPEG: said, nothing sent
n0=$(uploads)
tm send-keys -t wachat M-v
wait_pane 'Ogg Opus file.s path' >/dev/null
tm send-keys -t wachat -l "$fx/photo.jpg"
tm send-keys -t wachat Enter
check "Alt-v with a JPEG says a voice note is Ogg Opus only" \
    wait_pane 'only an Ogg Opus file goes as a voice note'
check "... and uploads nothing" [ "$(uploads)" = "$n0" ]
failed_now && show

# --- a voice note: Alt-v
type_path M-v "$fx" voi
tm send-keys -t wachat Enter
check "bob's phone receives the voice note (stanza: media, mediatype ptt): ptt, audio/ogg; codecs=opus, 2 s, a 64-byte waveform" \
    wait_for got "$fx/voice.ogg" type=audio mediatype=ptt ptt=true \
    stanza_type=media stanza_mediatype=ptt \
    "mimetype=audio/ogg; codecs=opus" seconds=2 waveform_bytes=64
failed_now && diag "$tmp/got.why"

# --- a document without a caption
type_path C-o "$fx" not
tm send-keys -t wachat Enter
wait_pane 'A caption \(may be empty\)' >/dev/null
tm send-keys -t wachat Enter
check "bob's phone receives the document (stanza: media, mediatype document): application/pdf, its file name" \
    wait_for got "$fx/notes.pdf" type=document mediatype=document \
    stanza_type=media stanza_mediatype=document \
    mimetype=application/pdf file_name=notes.pdf caption=
failed_now && diag "$tmp/got.why"

# --- a sticker
type_path C-o "$fx" sti
tm send-keys -t wachat Enter
wait_pane 'A caption \(may be empty\)' >/dev/null
tm send-keys -t wachat Enter
check "bob's phone receives the WebP as a sticker (stanza: media, mediatype sticker): image/webp, 64x64" \
    wait_for got "$fx/sticker.webp" type=sticker mediatype=sticker \
    stanza_type=media stanza_mediatype=sticker \
    mimetype=image/webp width=64 height=64
failed_now && diag "$tmp/got.why"

# --- the media host refuses uploads: failed, then Ctrl-t
r0=$(refused_uploads)
ctl media-settings 21600 1 >/dev/null 2>&1
type_path C-o "$fx" rep
tm send-keys -t wachat Enter
wait_pane 'A caption \(may be empty\)' >/dev/null
tm send-keys -t wachat -l "refused once"
tm send-keys -t wachat Enter
check "an upload the host refuses: the message says upload failed" \
    wait_pane 'upload failed'
check "... the host refused it" above refused_uploads "$r0"
check "... the status line says Ctrl-t tries again" \
    pane_has 'Ctrl-t tries again'
check "... bob's phone has nothing of it" [ "$(received 'refused once')" = 0 ]
failed_now && show
ctl media-settings 21600 67108864 >/dev/null 2>&1
tm send-keys -t wachat Up
tm send-keys -t wachat C-t
check "the host back, Up and Ctrl-t: bob's phone receives it, the file's bytes" \
    wait_for got "$fx/report.pdf" type=document "caption=refused once"
failed_now && { diag "$tmp/got.why"; show; }
sleep 2
check "... once" [ "$(received 'refused once')" = 1 ]
check "... its blob kept from the failed try, not sealed again" \
    [ "$(kept_count)" = 1 ]
check "... the pane no longer says upload failed" wait_gone 'upload failed'

# --- killed while the host holds the upload's answer back
ctl media-settings 21600 67108864 20000 >/dev/null 2>&1
n0=$(uploads)
cp "$fx/photo.jpg" "$fx/killed.jpg"
printf 'x' >>"$fx/killed.jpg"
type_path C-o "$fx" kil
tm send-keys -t wachat Enter
wait_pane 'A caption \(may be empty\)' >/dev/null
tm send-keys -t wachat -l "killed mid-upload"
tm send-keys -t wachat Enter
check "a stalled upload: the message says uploading N%" \
    wait_pane 'uploading [0-9]+%'
check "... the host has the blob (its answer held back)" \
    wait_for above uploads "$n0"
failed_now && show
check "... its sealed blob is in the data dir while it uploads" has_blob
pid=$(pane_wachat_pid)
check "wachat is killed with SIGKILL during the upload" \
    sh -c "[ -n '$pid' ] && kill -9 '$pid'"
st=$(exit_status)
check "... its exit status is the kill's (137)" [ "$st" = 137 ]
tm kill-server >/dev/null 2>&1
check "... bob's phone has not received it" \
    [ "$(received 'killed mid-upload')" = 0 ]
ctl media-settings 21600 67108864 0 >/dev/null 2>&1
# started again with a file-picker-command: a script that picks
# picked.jpg (written to its %f)
cp "$fx/photo.jpg" "$fx/picked.jpg"
printf 'p' >>"$fx/picked.jpg"
printf '#!/bin/sh\nprintf "%%s\\n" "%s" >"$1"\n' "$fx/picked.jpg" \
    >"$tmp/pick.sh"
start_pane --ca-file "$tmp/cert.pem" \
    --file-picker-command "'sh $tmp/pick.sh %f'"
check "started again, wachat uploads it again and bob's phone receives it" \
    wait_for got "$fx/killed.jpg" type=image "caption=killed mid-upload"
failed_now && { diag "$tmp/got.why"; show; }
tm send-keys -t wachat Tab
check "... its pane shows it in bob's chat, once" \
    wait_pane 'killed mid-upload'
check "... one line of it" \
    sh -c "capture; [ \$(grep -c 'killed mid-upload' '$tmp/pane') = 1 ]"
sleep 3
check "... exactly once" [ "$(received 'killed mid-upload')" = 1 ]
check "... the log says the upload was taken up again" \
    has_line "$LOG" 'upload taken up again'
check "... the killed run's sealed blob, kept, is uploaded again, not sealed again" \
    [ "$(kept_count)" = 2 ]
check "... no upload blob is left in the data dir once it is sent" no_blob

# --- wachat send --file, handed to the running wachat
cp "$fx/notes.pdf" "$fx/shell.pdf"
printf 'shell\n' >>"$fx/shell.pdf"
wsend() {
	so=$1
	shift
	env LC_ALL=C.UTF-8 "$W" send --data-dir "$tmp/data" "$@" \
	    >"$so" 2>"$so.err" </dev/null
	st=$?
}
wsend "$tmp/s1" bob --file "$fx/shell.pdf" --caption "from the shell"
check "wachat send bob --file PDF --caption: exit 0 ($st)" [ "$st" -eq 0 ]
check "... says it was sent" has_line "$tmp/s1" '^wachat: sent to bob$'
failed_now && diag "$tmp/s1.err"
check "... bob's phone has it: the file's bytes, its caption" \
    wait_for got "$fx/shell.pdf" type=document "caption=from the shell" \
    file_name=shell.pdf
failed_now && diag "$tmp/got.why"
check "... the pane shows it" wait_pane 'from the shell'
n0=$(uploads)
wsend "$tmp/s2" bob --file "$fx/photo.jpg" --ptt
check "--ptt with a JPEG: exit 9 ($st)" [ "$st" -eq 9 ]
check "... says a voice note is Ogg Opus" \
    has_line "$tmp/s2.err" 'only an Ogg Opus file goes as a voice note'
wsend "$tmp/s3" bob --file "$fx/photo.jpg" --max-media-size 100
check "a file over max-media-size: exit 9 ($st)" [ "$st" -eq 9 ]
check "... said before a byte is read" \
    has_line "$tmp/s3.err" 'larger than max-media-size'
wsend "$tmp/s4" bob --file "$fx/none.jpg"
check "no such file: exit 2 ($st)" [ "$st" -eq 2 ]
check "... nothing of these three was uploaded" [ "$(uploads)" = "$n0" ]
check "... the spool is empty again" \
    sh -c "[ -z \"\$(ls -A '$tmp/data/spool')\" ]"

# --- the file-picker-command: Ctrl-o runs it, its pick goes on to the
# caption
tm send-keys -t wachat C-o
check "with a file-picker-command, Ctrl-o runs it and asks for the caption of its pick" \
    wait_pane 'A caption \(may be empty\)'
tm send-keys -t wachat -l "picked"
tm send-keys -t wachat Enter
check "... bob's phone receives the picked file" \
    wait_for got "$fx/picked.jpg" type=image caption=picked
failed_now && { diag "$tmp/got.why"; diag "$tmp/pick.sh"; show; }
check "... the log says a file was chosen" \
    has_line "$LOG" 'file-picker-command: a file chosen'

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && diag "$tmp/w.err"
finish_sim_tmux
