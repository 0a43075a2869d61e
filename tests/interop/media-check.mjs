#!/usr/bin/env node
// Known-answer check of wachat's media scheme (proto/media.c) and history
// chunk (proto/history.c) against Baileys (protocol.md 12.2, 14.1):
//   1. for every media type both know, Baileys' encryptedStream() encrypts
//      a plaintext and wachat ($WA_MEDIA_TOOL decrypt, with its own
//      WA_MEDIA_INFO_* string for the type) decrypts it with both hashes
//      checked; wachat encrypts and Baileys' getMediaKeys() + node:crypto
//      decrypt it and check the MAC and both hashes;
//   2. Baileys builds a HistorySync (proto.HistorySync, zlib deflate,
//      encryptedStream 'md-msg-hist') and wachat reads it (hist-read);
//   3. wachat builds one (hist-make) and Baileys' downloadHistory() reads
//      it from a local HTTP server.
// Output is TAP.  Inputs use made-up JIDs.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import zlib from 'node:zlib';

const { proto } = await import('@whiskeysockets/baileys/WAProto/index.js');
const U = await import('@whiskeysockets/baileys/lib/Utils/index.js');
const D = await import('@whiskeysockets/baileys/lib/Defaults/index.js');

const TOOL = process.env.WA_MEDIA_TOOL;
if (!TOOL) {
	console.log('Bail out! WA_MEDIA_TOOL is not set');
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
const unhex = (s) => (s === null ? null : Buffer.from(s, 'hex').toString('utf8'));

// The types of Baileys' MEDIA_HKDF_KEY_MAPPING that have a key string;
// wa-media-tool maps each to its own constant (and fails on others).
const TYPES = ['image', 'sticker', 'video', 'gif', 'ptv', 'audio', 'ptt',
	'document', 'md-msg-hist', 'md-app-state', 'thumbnail-link',
	'thumbnail-image', 'thumbnail-video', 'thumbnail-document'];
for (const t of TYPES)
	assert.ok(D.MEDIA_HKDF_KEY_MAPPING[t], t);

// 1000 bytes of a fixed pattern, then sizes around the block size.
const SIZES = [0, 1, 15, 16, 17, 1000, 70001];
function plain(len, seed) {
	const b = Buffer.alloc(len);
	for (let i = 0; i < len; i++)
		b[i] = (i * 31 + seed * 7) & 0xff;
	return b;
}

async function baileysEncrypt(buf, type) {
	const r = await U.encryptedStream(buf, type);
	const blob = await fs.readFile(r.encFilePath);
	await fs.unlink(r.encFilePath);
	return { blob, mediaKey: r.mediaKey, fileEncSha256: r.fileEncSha256, fileSha256: r.fileSha256 };
}

for (const type of TYPES) {
	await check(`Baileys encrypts ${type}, wachat decrypts (both hashes)`, async () => {
		for (const len of SIZES) {
			const p = plain(len, len + type.length);
			const e = await baileysEncrypt(p, type);
			const out = tool(['decrypt', type, hex(e.mediaKey), hex(e.fileEncSha256), hex(e.fileSha256)], e.blob);
			assert.equal(out, 'ok ' + hex(p), `${type} at ${len} bytes`);
		}
	});
	await check(`wachat encrypts ${type}, Baileys' keys decrypt (MAC, hashes)`, async () => {
		for (const len of SIZES) {
			const p = plain(len, len * 3 + 1);
			const key = crypto.randomBytes(32);
			const [blobHex, encHex, shaHex] = tool(['encrypt', type, hex(key)], p).split(' ');
			const blob = Buffer.from(blobHex, 'hex');
			const k = await U.getMediaKeys(key, type);
			const enc = blob.subarray(0, blob.length - 10);
			const mac = crypto.createHmac('sha256', k.macKey).update(k.iv).update(enc).digest().subarray(0, 10);
			assert.equal(hex(blob.subarray(blob.length - 10)), hex(mac), 'MAC');
			const d = crypto.createDecipheriv('aes-256-cbc', k.cipherKey, k.iv);
			const back = Buffer.concat([d.update(enc), d.final()]);
			assert.equal(hex(back), hex(p), `${type} at ${len} bytes`);
			assert.equal(encHex, hex(crypto.createHash('sha256').update(blob).digest()));
			assert.equal(shaHex, hex(crypto.createHash('sha256').update(p).digest()));
		}
	});
}

await check('a Baileys blob under another type\'s key fails wachat\'s MAC check', async () => {
	const e = await baileysEncrypt(plain(100, 1), 'image');
	const out = tool(['decrypt', 'video', hex(e.mediaKey), '-', '-'], e.blob);
	assert.match(out, /^error -\d+ media MAC does not verify/);
});

// --- 2. Baileys builds a chunk, wachat reads it ---
const PEER = '15550001111@s.whatsapp.net';
const GROUP = '120363000000000009@g.us';
const TEXTS = ['hi there', 'مرحبا 👋 नमस्ते', '你好 こんにちは 👨‍👩‍👧', 'Привет'];

await check('Baileys\' HistorySync (deflated, encrypted) is read by wachat field for field', async () => {
	const msg = (i, over) => ({
		message: {
			key: { remoteJid: PEER, fromMe: i % 2 === 0, id: `3EB0C${i}` },
			message: { conversation: TEXTS[i] },
			messageTimestamp: 1700000000 + i,
			status: i % 2 === 0 ? 4 : undefined,
			pushName: i % 2 === 0 ? undefined : 'Zoë 🌸',
			...over,
		},
		msgOrderId: i + 1,
	});
	const hs = proto.HistorySync.encode({
		syncType: proto.HistorySync.HistorySyncType.RECENT,
		chunkOrder: 4,
		progress: 80,
		conversations: [
			{ id: PEER, lidJid: '100000000001111@lid', unreadCount: 2, conversationTimestamp: 1700000003,
				messages: [msg(0), msg(1), msg(2)] },
			{ id: GROUP, name: 'Family 👨‍👩‍👧', archived: true, pinned: 1, muteEndTime: 1800000000,
				participant: [{ userJid: '15550002222@s.whatsapp.net', rank: 1 }, { userJid: PEER }],
				messages: [{ message: { key: { remoteJid: GROUP, fromMe: false, id: '3EB0G1', participant: '15550002222@s.whatsapp.net' },
					message: { extendedTextMessage: { text: TEXTS[3] } }, messageTimestamp: 1700000010 } }] },
		],
		pushnames: [{ id: PEER, pushname: 'Zoë 🌸' }],
		phoneNumberToLidMappings: [{ pnJid: PEER, lidJid: '100000000001111@lid' }],
	}).finish();
	const e = await baileysEncrypt(zlib.deflateSync(hs), 'md-msg-hist');
	const j = JSON.parse(tool(['hist-read', hex(e.mediaKey), hex(e.fileEncSha256), hex(e.fileSha256)], e.blob));
	assert.equal(j.syncType, 3);
	assert.equal(j.chunkOrder, 4);
	assert.equal(j.progress, 80);
	assert.equal(j.conversations.length, 2);
	const [c0, c1] = j.conversations;
	assert.equal(unhex(c0.id), PEER);
	assert.equal(unhex(c0.lidJid), '100000000001111@lid');
	assert.equal(c0.unreadCount, 2);
	assert.equal(c0.conversationTimestamp, 1700000003);
	assert.equal(c0.messages.length, 3);
	c0.messages.forEach((m, i) => {
		assert.equal(unhex(m.remoteJid), PEER);
		assert.equal(unhex(m.id), `3EB0C${i}`);
		assert.equal(m.fromMe, i % 2 === 0);
		assert.equal(m.ts, 1700000000 + i);
		assert.equal(m.status, i % 2 === 0 ? 4 : -1);
		assert.equal(unhex(m.pushName), i % 2 === 0 ? null : 'Zoë 🌸');
		assert.equal(unhex(m.text), TEXTS[i]);
	});
	assert.equal(unhex(c1.id), GROUP);
	assert.equal(unhex(c1.name), 'Family 👨‍👩‍👧');
	assert.equal(c1.archived, true);
	assert.equal(c1.pinned, 1);
	assert.equal(c1.muteEndTime, 1800000000);
	assert.deepEqual(c1.participants.map((p) => [unhex(p.jid), p.rank]),
		[['15550002222@s.whatsapp.net', 1], [PEER, 0]]);
	assert.equal(unhex(c1.messages[0].participant), '15550002222@s.whatsapp.net');
	assert.equal(unhex(c1.messages[0].text), TEXTS[3]);
	assert.deepEqual(j.pushnames.map((p) => [unhex(p.id), unhex(p.pushname)]), [[PEER, 'Zoë 🌸']]);
	assert.deepEqual(j.lidMappings.map((p) => [unhex(p.pnJid), unhex(p.lidJid)]), [[PEER, '100000000001111@lid']]);
});

// --- 3. wachat builds a chunk, Baileys' downloadHistory reads it ---
await check('wachat\'s chunk (hist-make) is read by Baileys\' downloadHistory', async () => {
	const key = crypto.randomBytes(32);
	const [blobHex, encHex, shaHex] = tool(['hist-make', hex(key)]).split(' ');
	const blob = Buffer.from(blobHex, 'hex');
	assert.equal(encHex, hex(crypto.createHash('sha256').update(blob).digest()));
	const server = http.createServer((req, res) => {
		res.writeHead(200, { 'content-type': 'application/octet-stream' });
		res.end(blob);
	});
	await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
	try {
		const url = `http://127.0.0.1:${server.address().port}/v/t62.7119-24/hist`;
		const h = await U.downloadHistory({ mediaKey: key, url, fileEncSha256: Buffer.from(encHex, 'hex'),
			fileSha256: Buffer.from(shaHex, 'hex') }, {});
		assert.equal(h.syncType, proto.HistorySync.HistorySyncType.RECENT);
		assert.equal(h.chunkOrder, 3);
		assert.equal(h.progress, 55);
		assert.equal(h.conversations.length, 2);
		const [c0, c1] = h.conversations;
		assert.equal(c0.id, PEER);
		assert.equal(c0.lidJid, '100000000001111@lid');
		assert.equal(c0.unreadCount, 1);
		assert.equal(Number(c0.conversationTimestamp), 1700000001);
		assert.equal(c0.messages.length, 2);
		const m0 = c0.messages[0].message, m1 = c0.messages[1].message;
		assert.deepEqual([m0.key.remoteJid, m0.key.fromMe, m0.key.id], [PEER, true, '3EB0A1']);
		assert.equal(m0.message.conversation, 'hello from wachat');
		assert.equal(m0.status, 4);
		assert.equal(Number(m0.messageTimestamp), 1700000000);
		assert.equal(m1.pushName, 'Zoë 🌸');
		assert.equal(m1.message.conversation, 'مرحبا 👋 नमस्ते');
		assert.equal(c1.id, GROUP);
		assert.equal(c1.name, '家族 👨‍👩‍👧');
		assert.equal(c1.archived, true);
		assert.equal(c1.pinned, 2);
		assert.equal(Number(c1.muteEndTime), 1800000000);
		assert.deepEqual(c1.participant.map((p) => [p.userJid, p.rank ?? 0]),
			[['15550002222@s.whatsapp.net', 2], ['100000000003333@lid', 0]]);
		const g = c1.messages[0].message;
		assert.equal(g.key.participant, '15550002222@s.whatsapp.net');
		assert.equal(g.participant, '15550002222@s.whatsapp.net');
		assert.equal(g.message.conversation, '你好 こんにちは 👨‍👩‍👧');
		assert.deepEqual(h.pushnames.map((p) => [p.id, p.pushname]), [[PEER, 'Zoë 🌸']]);
		assert.deepEqual(h.phoneNumberToLidMappings.map((p) => [p.pnJid, p.lidJid]), [[PEER, '100000000001111@lid']]);
	} finally {
		server.close();
	}
});

console.log(`1..${n}`);
for (const r of results)
	console.log(r);
process.exit(failed ? 1 : 0);
