#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Media in wachat-sim (protocol-features.md 1): fixtures made here (a
# JPEG photo and thumbnail with cjpeg, an Ogg/Opus voice note with
# opusenc, a WebP sticker with cwebp, an MP4 header and a two-page PDF
# written by python3); a contact's phone sends each to an account's phone
# (which fetches, decrypts and checks it), the refusals of the admin
# route and of the media host (auth, expiry) through `wachat-sim ctl` and
# curl; then tests/sim-interop/baileys-media.mjs: Baileys receives and
# downloads each type, uploads a photo and a document through the sim's
# media_conn and host, and asks for a re-upload of an expired blob.  TAP.
# Needs openssl, curl, python3, cjpeg, opusenc, cwebp, Node 20 and the
# packages of tests/interop (npm ci there): without them the test fails.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

need openssl curl python3 cjpeg opusenc cwebp "${NODE:-node}"
test_cert

# The fixtures.
fx=$tmp/fixtures
mkdir -p "$fx"
# ppm W H FILE: a colour gradient as a binary PPM.
ppm() {
	python3 -c 'import sys
w, h = int(sys.argv[1]), int(sys.argv[2])
px = bytes(v for y in range(h) for x in range(w) for v in ((x * 255) // w, (y * 255) // h, 96))
open(sys.argv[3], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + px)' "$@"
}
ppm 64 48 "$tmp/photo.ppm" && cjpeg -quality 85 "$tmp/photo.ppm" >"$fx/photo.jpg"
ppm 32 24 "$tmp/thumb.ppm" && cjpeg -quality 50 "$tmp/thumb.ppm" >"$fx/thumb.jpg"
ppm 64 64 "$tmp/sticker.ppm" && cwebp -quiet "$tmp/sticker.ppm" -o "$fx/sticker.webp"
python3 -c 'import math, struct, sys
sr, n = 16000, 16000 * 2
pcm = b"".join(struct.pack("<h", int(9000 * math.sin(2 * math.pi * 330 * i / sr) * math.sin(math.pi * i / n))) for i in range(n))
open(sys.argv[1], "wb").write(b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " +
    struct.pack("<IHHIIHH", 16, 1, 1, sr, sr * 2, 2, 16) + b"data" + struct.pack("<I", len(pcm)) + pcm)' "$tmp/voice.wav" &&
    opusenc --quiet "$tmp/voice.wav" "$fx/voice.ogg"
# An MP4 to its headers: ftyp, moov with mvhd (3 s) and a 64x48 tkhd.
python3 -c 'import struct, sys
def box(t, b): return struct.pack(">I", 8 + len(b)) + t + b
mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 1000, 3000) + struct.pack(">IH", 0x10000, 0x100) + bytes(10) +
    struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + bytes(24) + struct.pack(">I", 2))
tkhd = box(b"tkhd", b"\0\0\0\3" + struct.pack(">IIIII", 0, 0, 1, 0, 3000) + bytes(8) + struct.pack(">HHHH", 0, 0, 0, 0) +
    struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + struct.pack(">II", 64 << 16, 48 << 16))
out = box(b"ftyp", b"isom\0\0\2\0isomiso2mp41") + box(b"moov", mvhd + box(b"trak", tkhd)) + box(b"mdat", bytes(64))
open(sys.argv[1], "wb").write(out)' "$fx/clip.mp4"
python3 -c 'import sys
objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>"]
out, offs = b"%PDF-1.4\n", []
for i, o in enumerate(objs):
    offs.append(len(out))
    out += b"%d 0 obj\n%s\nendobj\n" % (i + 1, o.encode())
x = len(out)
out += b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offs)
out += b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % x
open(sys.argv[1], "wb").write(out)' "$fx/notes.pdf"
for f in photo.jpg thumb.jpg sticker.webp voice.ogg clip.mp4 notes.pdf; do
	check "the fixture $f is made" test -s "$fx/$f" || exit 1
done

sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" ||
    { echo "Bail out! wachat-sim did not start"; exit 1; }
MPORT=$(sed -n 's/^media-port=//p' "$tmp/sim.out")

# json FILE EXPR: a JavaScript expression over the JSON in FILE (as d).
json() {
	"${NODE:-node}" -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(eval(process.argv[2]))' "$1" "$2"
}
sha() {
	"${NODE:-node}" -e 'console.log(require("crypto").createHash("sha256").update(require("fs").readFileSync(process.argv[1])).digest("hex"))' "$1"
}

A=15550000001
B=15550000002
ctl account $A "" alice >/dev/null 2>&1
ctl contact $B "" Bob $A >/dev/null 2>&1
ctl media-send $B $A@s.whatsapp.net image "$fx/photo.jpg" --width 64 \
    --height 48 --caption "A photo" --thumbnail "$fx/thumb.jpg" >"$tmp/s1" 2>&1
check "media-send: Bob's phone sends a photo to alice's phone (one pkmsg)" \
    test "$(json "$tmp/s1" 'd.devices.length + "/" + d.media.type + "/" + d.media.mediatype + "/" + d.media.length')" = "1/image/image/$(wc -c <"$fx/photo.jpg" | tr -d ' ')" || diag "$tmp/s1"
ID1=$(json "$tmp/s1" 'd.id')
wait_ctl "\"dir\":\"received\",\"id\":\"$ID1\"" media
ctl media >"$tmp/m1" 2>&1
check "alice's phone fetched it from the media host and decrypted the photo's bytes" \
    test "$(json "$tmp/m1" 'const r = d.messages.find((m) => m.dir === "received" && m.id === "'"$ID1"'"); r.ok + "/" + r.decrypted_sha256 + "/" + r.width + "x" + r.height + "/" + r.thumbnail_bytes')" = "true/$(sha "$fx/photo.jpg")/64x48/$(wc -c <"$fx/thumb.jpg" | tr -d ' ')" || diag "$tmp/m1"
ctl media-send $B $A@s.whatsapp.net document --caption "Minutes" >"$tmp/s2" 2>&1
check "a document without a file is the generated one-page PDF" \
    test "$(json "$tmp/s2" 'd.media.file_name + "/" + d.media.pages + "/" + d.media.mimetype')" = "wachat-sim.pdf/1/application/pdf" || diag "$tmp/s2"
ctl media-send $B $A@s.whatsapp.net audio "$fx/voice.ogg" --seconds 2 >"$tmp/s3" 2>&1
check "a voice note is ptt with a 64-byte waveform, mediatype ptt" \
    test "$(json "$tmp/s3" 'd.media.ptt + "/" + d.media.waveform_bytes + "/" + d.media.mediatype + "/" + d.media.mimetype')" = "true/64/ptt/audio/ogg; codecs=opus" || diag "$tmp/s3"
ctl media-send $B $A@s.whatsapp.net image >"$tmp/e1" 2>&1
check "media-send: a photo without a file is refused" grep -q 'give file' "$tmp/e1"
ctl media-send $B $A@s.whatsapp.net gif "$fx/photo.jpg" >"$tmp/e2" 2>&1
check "media-send: an unknown type is refused" grep -q 'type (image, video' "$tmp/e2"
ctl media-send $B $A@s.whatsapp.net image "$tmp/none.jpg" >"$tmp/e3" 2>&1
check "media-send: a file that is not there is refused" grep -q 'cannot read the file' "$tmp/e3"

# The media host: GET by direct path (and the [RS] and [WM] URL forms).
P1=$(json "$tmp/m1" 'd.messages.find((m) => m.id === "'"$ID1"'").direct_path')
E1=$(json "$tmp/m1" 'Buffer.from(d.messages.find((m) => m.id === "'"$ID1"'").file_enc_sha256, "hex").toString("base64url")')
code() {
	curl -s -o "$tmp/body" -w '%{http_code}' --cacert "$tmp/cert.pem" "$@"
}
check "GET by the direct path: 200" test "$(code "https://127.0.0.1:$MPORT$P1")" = 200
check "GET with ?auth&token (the [RS] form): 200" test "$(code "https://127.0.0.1:$MPORT${P1%%\?*}?auth=x&token=$E1")" = 200
check "GET with &hash=PADDED&mms-type=image (the [WM] form): 200" test "$(code "https://127.0.0.1:$MPORT$P1&hash=$E1=&mms-type=image&__wa-mms=")" = 200
check "GET with a wrong token: 404" test "$(code "https://127.0.0.1:$MPORT${P1%%\?*}?token=AAAA")" = 404
check "POST with an auth no media_conn handed out: 401" \
    test "$(code -X POST --data-binary @"$fx/photo.jpg" -H 'Content-Type: application/octet-stream' "https://127.0.0.1:$MPORT/mms/image/$E1?auth=nope&token=$E1")" = 401
ctl media-expire "$P1" >"$tmp/x1" 2>&1
check "media-expire PATH: the blob answers 404" test "$(code "https://127.0.0.1:$MPORT$P1")" = 404
ctl media-expire "$(json "$tmp/s2" 'd.id')" 410 >"$tmp/x2" 2>&1
check "media-expire ID 410: the document's blob answers 410" \
    test "$(code "https://127.0.0.1:$MPORT$(json "$tmp/x2" 'd.path')")" = 410 || diag "$tmp/x2"
ctl media-expire "$P1" 500 >"$tmp/x3" 2>&1
check "media-expire refuses a code other than 404 or 410" grep -q 'code: 404 or 410' "$tmp/x3"
ctl media-settings 0 100 >"$tmp/x4" 2>&1
check "media-settings sets the auth's lifetime and the upload cap" \
    test "$(json "$tmp/x4" 'd.auth_ttl + "/" + d.max_bytes')" = "0/100" || diag "$tmp/x4"
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
check "no sanitizer report" test -z "$reports" || for f in $reports; do diag "$f"; done

# The Baileys part, numbered on from here.
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
SIM_MEDIA_FIXTURES=$fx
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS SIM_MEDIA_FIXTURES
sim_node_tap baileys-media.mjs
finish_tap
