#!/usr/bin/env node
// Interop of wachat's streaming media contexts (proto/media-stream.c,
// protocol-features.md 1.3) with Baileys (TAP):
//   1. Baileys' encryptedStream() output decrypts with wachat's stream
//      context ($WA_MEDIA_STREAM_TOOL sdecrypt) fed in pieces of 1, 17,
//      4095 and 65536 bytes, both hashes and the declared length checked,
//      to the same bytes, for image, sticker, video, audio, ptt and
//      document keys;
//   2. wachat's stream encryption (sencrypt) is fetched and decrypted by
//      Baileys' downloadContentFromMessage() from a local HTTP server to
//      the same bytes, and its fileEncSha256 and fileSha256 are the
//      SHA-256 of the blob and of the plaintext;
//   3. a Baileys blob with one byte flipped, or under another type's key,
//      is refused by wachat with the check's error (fileEncSHA256, MAC).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';

const U = await import('@whiskeysockets/baileys/lib/Utils/index.js');

const TOOL = process.env.WA_MEDIA_STREAM_TOOL;
if (!TOOL) {
	console.log('Bail out! WA_MEDIA_STREAM_TOOL is not set');
	process.exit(1);
}

let n = 0, failed = 0;
const results = [];
async function check(name, fn) {
	try {
		await fn();
		results.push(`ok ${++n} - ${name}`);
	} catch (e) {
		failed++;
		const msg = String(e.stack || e.message).split('\n').map((l) => '# ' + l).join('\n');
		results.push(`not ok ${++n} - ${name}\n${msg}`);
	}
}

function tool(args, input) {
	const r = spawnSync(TOOL, args, { input, maxBuffer: 1 << 28 });
	if (r.status !== 0)
		throw new Error(`${TOOL} ${args[0]} exited ${r.status}: ${r.stderr}`);
	return r.stdout.toString().replace(/\n$/, '');
}

const hex = (b) => Buffer.from(b).toString('hex');
const sha256 = (b) => crypto.createHash('sha256').update(b).digest();

const TYPES = ['image', 'sticker', 'video', 'audio', 'ptt', 'document'];
const SIZES = [0, 1, 15, 16, 17, 4095, 65536, 300001];
const CHUNKS = [1, 17, 4095, 65536];

function plain(len, seed) {
	const b = Buffer.alloc(len);
	for (let i = 0; i < len; i++)
		b[i] = (i * 131 + seed * 7 + (i >> 9)) & 0xff;
	return b;
}

async function baileysEncrypt(buf, type) {
	const r = await U.encryptedStream(buf, type);
	const blob = await fs.readFile(r.encFilePath);
	await fs.unlink(r.encFilePath);
	if (r.originalFilePath)
		await fs.unlink(r.originalFilePath).catch(() => {});
	return { blob, mediaKey: r.mediaKey, fileEncSha256: r.fileEncSha256,
		fileSha256: r.fileSha256, fileLength: r.fileLength };
}

for (const type of TYPES) {
	await check(`Baileys encrypts ${type}, wachat's stream decrypts it at each chunk size`, async () => {
		for (const len of SIZES) {
			const p = plain(len, len + type.length);
			const e = await baileysEncrypt(p, type);
			assert.equal(Number(e.fileLength), len);
			for (const c of (len > 70000 ? [1, 65536] : CHUNKS)) {
				const out = tool(['sdecrypt', type, hex(e.mediaKey), hex(e.fileEncSha256),
					hex(e.fileSha256), String(len), String(c)], e.blob);
				assert.ok(out === 'ok ' + hex(p), `${type} at ${len} bytes in ${c}-byte pieces: ${out.slice(0, 80)}`);
			}
		}
	});
}

// A local media host for Baileys' download.
const blobs = new Map();
const server = http.createServer((req, res) => {
	const b = blobs.get(req.url);
	if (!b) {
		res.writeHead(404);
		res.end();
		return;
	}
	res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': b.length });
	res.end(b);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

async function collect(stream) {
	const parts = [];
	for await (const c of stream)
		parts.push(c);
	return Buffer.concat(parts);
}

for (const type of TYPES) {
	await check(`wachat's stream encrypts ${type}, Baileys' downloadContentFromMessage decrypts it`, async () => {
		for (const len of SIZES) {
			const p = plain(len, len * 3 + 1);
			const key = crypto.randomBytes(32);
			const [blobHex, encHex, shaHex, flen] = tool(['sencrypt', type, hex(key), '4095'], p).split(' ');
			const blob = Buffer.from(blobHex, 'hex');
			assert.equal(Number(flen), len);
			assert.equal(encHex, hex(sha256(blob)), 'fileEncSha256');
			assert.equal(shaHex, hex(sha256(p)), 'fileSha256');
			const path = `/v/t62/${type}-${len}.enc`;
			blobs.set(path, blob);
			const back = await collect(await U.downloadContentFromMessage({ mediaKey: key, url: base + path }, type));
			assert.equal(back.length, len, `${type} at ${len} bytes`);
			assert.ok(back.equals(p), `${type} at ${len} bytes`);
		}
	});
}
server.close();

await check('a flipped byte in a Baileys blob fails fileEncSHA256; without the hash, the MAC', async () => {
	const e = await baileysEncrypt(plain(5000, 3), 'image');
	const bad = Buffer.from(e.blob);
	bad[100] ^= 1;
	let out = tool(['sdecrypt', 'image', hex(e.mediaKey), hex(e.fileEncSha256), hex(e.fileSha256), '5000', '17'], bad);
	assert.match(out, /^error -\d+ SHA-256 of the download is not fileEncSHA256/);
	out = tool(['sdecrypt', 'image', hex(e.mediaKey), '-', '-', '-', '17'], bad);
	assert.match(out, /^error -\d+ media MAC does not verify/);
	out = tool(['sdecrypt', 'document', hex(e.mediaKey), '-', '-', '-', '4095'], e.blob);
	assert.match(out, /^error -\d+ media MAC does not verify/);
	out = tool(['sdecrypt', 'image', hex(e.mediaKey), hex(e.fileEncSha256), hex(e.fileSha256), '5001', '4095'], e.blob);
	assert.match(out, /^error -\d+ media file is shorter than its declared fileLength/);
});

console.log(`1..${n}`);
for (const r of results)
	console.log(r);
process.exit(failed ? 1 : 0);
