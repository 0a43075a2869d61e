# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by tests/mediasend19-*.sh: the fixtures made here, nothing
# copied from elsewhere.  media_jpeg FILE: a 64x48 colour gradient as a
# JPEG (cjpeg); media_webp FILE: the same picture as a static WebP
# (cwebp); media_ogg FILE: one second of a 440 Hz tone rising from
# silence as Ogg Opus (opusenc); media_pdf FILE: a one-page PDF (python3); media_mp4 FILE
# [SECONDS]: a 320x240 H.264 video (ffmpeg), red on its left half and
# blue on its right, with a 440 Hz tone, 3 seconds long unless told.
media_ppm() {
	python3 -c 'import sys
w, h = 64, 48
px = bytes(v for y in range(h) for x in range(w) for v in ((x * 255) // w, (y * 255) // h, 96))
open(sys.argv[1], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + px)' "$tmp/p.ppm"
}
media_jpeg() {
	media_ppm && cjpeg -quality 85 "$tmp/p.ppm" >"$1"
}
media_webp() {
	media_ppm && cwebp -quiet "$tmp/p.ppm" -o "$1" 2>/dev/null
}
media_ogg() {
	python3 -c 'import math, struct, sys
sr, n = 16000, 16000
pcm = b"".join(struct.pack("<h", int(8000 * i / n * math.sin(2 * math.pi * 440 * i / sr))) for i in range(n))
open(sys.argv[1], "wb").write(b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " +
    struct.pack("<IHHIIHH", 16, 1, 1, sr, sr * 2, 2, 16) + b"data" + struct.pack("<I", len(pcm)) + pcm)' "$tmp/v.wav" &&
	    opusenc --quiet "$tmp/v.wav" "$1" 2>/dev/null
}
media_pdf() {
	python3 -c 'import sys
objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>"]
out, offs = b"%PDF-1.4\n", []
for i, o in enumerate(objs):
    offs.append(len(out))
    out += b"%d 0 obj\n%s\nendobj\n" % (i + 1, o.encode())
x = len(out)
out += b"xref\n0 4\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offs)
out += b"trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % x
open(sys.argv[1], "wb").write(out)' "$1"
}
media_mp4() {
	ffmpeg -nostdin -loglevel error -y -f lavfi -i \
	    "color=c=red:s=160x240:d=${2:-3}[a];color=c=blue:s=160x240:d=${2:-3}[b];sine=f=440:d=${2:-3}[out1];[a][b]hstack[out0]" \
	    -c:v libx264 -pix_fmt yuv420p -c:a aac "$1"
}
# media_waveform OGG: the 64-byte waveform of a voice note
# (protocol-features.md 1.6, as Baileys' getAudioWaveform: each value
# floor(100 * a 64th's mean magnitude / the loudest 64th's)) of the
# samples opusdec (opus-tools) decodes at 48 kHz, as numbers split by
# commas.
media_waveform() {
	opusdec --quiet --rate 48000 --no-dither "$1" "$tmp/w48.wav" 2>/dev/null &&
	    python3 -c 'import math, struct, sys
d = open(sys.argv[1], "rb").read()
i = 12
while i + 8 <= len(d):
    cid, n = d[i:i + 4], struct.unpack("<I", d[i + 4:i + 8])[0]
    if cid == b"data":
        break
    i += 8 + n
pcm = d[i + 8:i + 8 + n]
s = struct.unpack("<%dh" % (len(pcm) // 2), pcm)
blk, sums = max(len(s) // 64, 1), [0.0] * 64
for k, v in enumerate(s):
    if k // blk < 64:
        sums[k // blk] += abs(v)
top = max(sums)
print(",".join(str(math.floor(100 * x / top) if top > 0 else 0) for x in sums))' "$tmp/w48.wav"
}
