#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Seed corpora of fuzz-wa-stanza, fuzz-wa-eng and fuzz-wa-media made by
// Baileys (the npm package in tests/interop/node_modules): stanzas as a
// WhatsApp server sends them, encoded by Baileys' encodeBinaryNode (the
// flags byte, then the node; a few zlib-compressed), and history blobs
// encrypted by Baileys' encryptedStream('md-msg-hist').  Made-up JIDs.
// Deterministic apart from the media keys Baileys draws.  Run from the
// top of the tree:
//   node tests/fuzz/gen-seeds.mjs
// It rewrites tests/fuzz/corpus/{wa-stanza,wa-eng,wa-media}/bl-* .
// fuzz-wa-eng takes a sequence of frames, each with a 2-byte big-endian
// length (tests/fuzz/fuzz-wa-eng.c); fuzz-wa-media a flags byte, the
// media key and the file hash, then the blob (tests/fuzz/fuzz-wa-media.c).

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODS = path.join(HERE, '..', 'interop', 'node_modules');
const imp = (p) => import(pathToFileURL(path.join(MODS, p)).href);
const { encodeBinaryNode } = await imp('@whiskeysockets/baileys/lib/WABinary/index.js');
const { proto } = await imp('@whiskeysockets/baileys/WAProto/index.js');
const U = await imp('@whiskeysockets/baileys/lib/Utils/index.js');

const ME = '15550002222:3@s.whatsapp.net';
const ME_LID = '100000000002222:3@lid';
const PEER = '15550001111@s.whatsapp.net';
const PEER_DEV = '15550001111:2@s.whatsapp.net';
const PEER_LID = '100000000001111@lid';
const GROUP = '120363000000000009@g.us';
const S = 's.whatsapp.net';
const bytes = (n, seed) => {
	const b = Buffer.alloc(n);
	let x = seed >>> 0 || 1;
	for (let i = 0; i < n; i++) {
		x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
		b[i] = x & 0xff;
	}
	return b;
};
const node = (tag, attrs = {}, content) => (content === undefined ? { tag, attrs } : { tag, attrs, content });
const enc = (type, n, extra = {}) => node('enc', { v: '2', type, ...extra }, bytes(n, n));
const reg = Buffer.from([0, 0, 0x30, 0x39]);

const stanzas = {
	'msg-pkmsg': node('message', { id: '3EB0A1B2C3D4E5F60718', from: PEER_DEV, type: 'text', t: '1700000000', notify: 'Zoë' }, [
		enc('pkmsg', 180)]),
	'msg-msg-lid': node('message', { id: '3EB0A1B2C3D4E5F60719', from: '100000000001111:2@lid', type: 'text', t: '1700000001',
		sender_pn: PEER, addressing_mode: 'lid' }, [enc('msg', 90)]),
	'msg-group-skmsg': node('message', { id: '3EB0A1B2C3D4E5F6071A', from: GROUP, participant: PEER_DEV, type: 'text',
		t: '1700000002', participant_pn: PEER, addressing_mode: 'pn' }, [enc('pkmsg', 200), enc('skmsg', 70)]),
	'msg-unavailable': node('message', { id: '3EB0A1B2C3D4E5F6071B', from: PEER, type: 'text', t: '1700000003', offline: '1' }, [
		node('unavailable', { type: 'view_once' })]),
	'msg-peer-own': node('message', { id: '3EB0A1B2C3D4E5F6071C', from: '15550002222:0@s.whatsapp.net', recipient: PEER,
		category: 'peer', type: 'text', t: '1700000004' }, [enc('msg', 60, { count: '2', mediatype: 'image', 'decrypt-fail': 'hide' })]),
	'msg-other-enc': node('message', { id: '3EB0A1B2C3D4E5F6071D', from: PEER, type: 'media', edit: '1', t: '1700000005' }, [
		node('enc', { v: '3', type: 'msmsg' }, bytes(40, 7)), enc('msg', 50)]),
	'rcpt-delivery': node('receipt', { id: '3EB0A1B2C3D4E5F60718', from: PEER_DEV, t: '1700000010' }),
	'rcpt-read-list': node('receipt', { id: '3EB0AAAA', from: PEER, type: 'read', t: '1700000011' }, [
		node('list', {}, [node('item', { id: '3EB0BBBB' }), node('item', { id: '3EB0CCCC' })])]),
	'rcpt-group-read': node('receipt', { id: '3EB0DDDD', from: GROUP, participant: PEER_DEV, type: 'read-self', t: '1700000012' }),
	'rcpt-retry': node('receipt', { id: '3EB0EEEE', from: PEER_DEV, type: 'retry', t: '1700000013' }, [
		node('retry', { count: '1', id: '3EB0EEEE', t: '1700000009', v: '1' }), node('registration', {}, reg)]),
	'rcpt-retry-keys': node('receipt', { id: '3EB0FFFF', from: PEER_DEV, type: 'retry', participant: PEER_DEV, t: '1700000014' }, [
		node('retry', { count: '2', id: '3EB0FFFF', t: '1700000009', v: '1' }), node('registration', {}, reg),
		node('keys', {}, [node('type', {}, Buffer.from([5])), node('identity', {}, bytes(32, 1)),
			node('key', {}, [node('id', {}, Buffer.from([0, 0, 7])), node('value', {}, bytes(32, 2))]),
			node('skey', {}, [node('id', {}, Buffer.from([0, 0, 1])), node('value', {}, bytes(32, 3)),
				node('signature', {}, bytes(64, 4))]),
			node('device-identity', {}, bytes(150, 5))])]),
	'rcpt-played': node('receipt', { id: '3EB0ABCD', from: PEER, recipient: ME, type: 'played', t: '1700000015' }),
	'ack-message': node('ack', { class: 'message', id: '3EB0A1B2C3D4E5F60720', from: PEER, t: '1700000020', phash: '2:abcd' }),
	'ack-message-error': node('ack', { class: 'message', id: '3EB0A1B2C3D4E5F60721', from: GROUP, error: '479' }),
	'ack-receipt': node('ack', { class: 'receipt', id: '3EB0A1B2C3D4E5F60722', from: PEER, type: 'read' }),
	'chatstate-composing': node('chatstate', { from: PEER }, [node('composing')]),
	'chatstate-audio': node('chatstate', { from: GROUP, participant: PEER_DEV }, [node('composing', { media: 'audio' })]),
	'chatstate-paused': node('chatstate', { from: PEER_LID }, [node('paused')]),
	'presence-available': node('presence', { from: PEER }),
	'presence-last': node('presence', { from: PEER, type: 'unavailable', last: '1700000030' }),
	'presence-deny': node('presence', { from: PEER_LID, type: 'unavailable', last: 'deny' }),
	'notif-devices': node('notification', { from: PEER, id: '1234567', type: 'devices', t: '1700000040' }, [
		node('add', { device_hash: '2:xyz' }, [node('device', { jid: PEER_DEV, 'key-index': '2' }),
			node('key-index-list', { ts: '1700000040' }, bytes(20, 9))])]),
	'notif-devices-remove': node('notification', { from: PEER_LID, id: '1234568', type: 'devices', t: '1700000041' }, [
		node('remove', {}, [node('device', { jid: '100000000001111:4@lid' })])]),
	'notif-encrypt': node('notification', { from: S, id: '1234569', type: 'encrypt', t: '1700000042' }, [
		node('count', { value: '4' })]),
	'notif-encrypt-identity': node('notification', { from: PEER, id: '1234570', type: 'encrypt', t: '1700000043' }, [
		node('identity')]),
	'notif-account-sync': node('notification', { from: ME.replace(':3', ''), id: '1234571', type: 'account_sync', pushname: 'Ann 🌸' }),
	'notif-w-gp2': node('notification', { from: GROUP, id: '1234572', type: 'w:gp2', participant: PEER, t: '1700000044' }, [
		node('add', { reason: 'invite' }, [node('participant', { jid: '15550003333@s.whatsapp.net', phone_number: '15550003333@s.whatsapp.net' })]),
		node('subject', { subject: 'Family 👨‍👩‍👧', s_o: PEER, s_t: '1700000044' })]),
	'notif-w-gp2-remove': node('notification', { from: GROUP, id: '1234573', type: 'w:gp2', participant: PEER, t: '1700000045' }, [
		node('remove', {}, [node('participant', { jid: ME.replace(':3', '') })])]),
	'notif-reg-refresh': node('notification', { from: S, id: '1234574', type: 'companion_reg_refresh' }),
	'notif-picture': node('notification', { from: PEER, id: '1234575', type: 'picture', t: '1700000046' }, [
		node('set', { jid: PEER, id: '1700000046' })]),
	'iq-ping': node('iq', { from: S, id: '12345.6789-1', type: 'get', xmlns: 'urn:xmpp:ping' }),
	'iq-ping-child': node('iq', { from: S, id: '12345.6789-2', type: 'get' }, [node('ping')]),
	'iq-result': node('iq', { from: S, id: 'fuzz.7', type: 'result' }),
	'iq-error': node('iq', { from: S, id: 'fuzz.8', type: 'error' }, [node('error', { code: '500', text: 'internal-server-error' })]),
	'iq-media-conn': node('iq', { from: S, id: 'fuzz.9', type: 'result' }, [
		node('media_conn', { auth: 'AUTH', ttl: '300' }, [node('host', { hostname: 'mmg.whatsapp.net' })])]),
	'iq-usync': node('iq', { from: S, id: 'fuzz.10', type: 'result' }, [
		node('usync', { sid: 'fuzz.10', mode: 'query', context: 'message' }, [node('list', {}, [
			node('user', { jid: PEER }, [node('devices', {}, [node('device-list', {}, [
				node('device', { id: '0' }), node('device', { id: '2', 'key-index': '1' })])])])])])]),
	'iq-set-pair-device': node('iq', { from: S, id: 'fuzz.11', type: 'set' }, [
		node('pair-device', {}, [node('ref', {}, 'REF1'), node('ref', {}, 'REF2')])]),
	'ib-dirty': node('ib', { from: S }, [node('dirty', { type: 'account_sync', timestamp: '1700000050' })]),
	'ib-offline': node('ib', { from: S }, [node('offline', { count: '3' })]),
	'ib-edge-routing': node('ib', { from: S }, [node('edge_routing', {}, [node('routing_info', {}, bytes(12, 11))])]),
	'call-offer': node('call', { from: PEER_DEV, id: 'CALL1', t: '1700000060' }, [
		node('offer', { 'call-id': 'ABCDEF0123', 'call-creator': PEER_DEV }, [node('audio', { enc: 'opus', rate: '16000' })])]),
	'failure-401': node('failure', { reason: '401', location: 'frc' }),
	'failure-405': node('failure', { reason: '405' }),
	'failure-503': node('failure', { reason: '503' }),
	'stream-error-515': node('stream:error', { code: '515' }),
	'stream-error-conflict': node('stream:error', {}, [node('conflict', { type: 'replaced' })]),
	'stream-error-device-removed': node('stream:error', { code: '401' }, [node('conflict', { type: 'device_removed' })]),
	'xmlstreamend': node('xmlstreamend'),
	'success-again': node('success', { t: '1700000070', props: '1', lid: ME_LID }),
};

const STANZA_ONLY = /^(msg|rcpt|ack|chatstate|presence|notif)-/;

function write(dir, name, data) {
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, name), data);
}
function clean(dir) {
	if (!fs.existsSync(dir)) return;
	for (const f of fs.readdirSync(dir))
		if (f.startsWith('bl-')) fs.unlinkSync(path.join(dir, f));
}
const framed = (frames) => Buffer.concat(frames.flatMap((f) => {
	const h = Buffer.alloc(2);
	h.writeUInt16BE(f.length);
	return [h, f];
}));

const corpus = path.join(HERE, 'corpus');
for (const d of ['wa-stanza', 'wa-eng', 'wa-media']) clean(path.join(corpus, d));

const frames = {};
for (const [name, n] of Object.entries(stanzas))
	frames[name] = encodeBinaryNode(n);
for (const [name, f] of Object.entries(frames)) {
	if (STANZA_ONLY.test(name))
		write(path.join(corpus, 'wa-stanza'), `bl-${name}`, f);
	write(path.join(corpus, 'wa-eng'), `bl-${name}`, framed([f]));
}
// Compressed frames (flags bit 2, zlib), as the server may send.
for (const name of ['rcpt-read-list', 'msg-group-skmsg']) {
	const f = frames[name];
	const z = Buffer.concat([Buffer.from([2]), zlib.deflateSync(f.subarray(1))]);
	write(path.join(corpus, 'wa-stanza'), `bl-z-${name}`, z);
	write(path.join(corpus, 'wa-eng'), `bl-z-${name}`, framed([z]));
}
// A few sequences for the engine: state carried from one stanza to the next.
const seqs = {
	'seq-ping-receipt-ack': ['iq-ping', 'rcpt-retry', 'ack-message', 'iq-ping'],
	'seq-notifs': ['notif-devices', 'notif-encrypt', 'notif-account-sync', 'notif-w-gp2', 'iq-ping'],
	'seq-ib-call-presence': ['ib-dirty', 'call-offer', 'presence-last', 'chatstate-composing', 'iq-ping'],
	'seq-msgs-then-error': ['msg-pkmsg', 'msg-msg-lid', 'msg-unavailable', 'stream-error-515', 'iq-ping'],
};
for (const [name, list] of Object.entries(seqs))
	write(path.join(corpus, 'wa-eng'), `bl-${name}`, framed(list.map((k) => frames[k])));

// History blobs: Baileys builds and encrypts them (12.2, 14.1).
const hist = (over) => proto.HistorySync.encode({
	syncType: proto.HistorySync.HistorySyncType.RECENT,
	chunkOrder: 1,
	progress: 50,
	conversations: [{ id: PEER, lidJid: PEER_LID, unreadCount: 1, conversationTimestamp: 1700000003,
		messages: [{ message: { key: { remoteJid: PEER, fromMe: false, id: '3EB0H1' },
			message: { conversation: 'hello 👋' }, messageTimestamp: 1700000001, pushName: 'Zoë' }, msgOrderId: 1 },
		{ message: { key: { remoteJid: PEER, fromMe: true, id: '3EB0H2' },
			message: { extendedTextMessage: { text: 'quoted', contextInfo: { stanzaId: '3EB0H1', participant: PEER,
				quotedMessage: { conversation: 'hello 👋' } } } }, messageTimestamp: 1700000002, status: 4 }, msgOrderId: 2 }] },
	{ id: GROUP, name: 'Family', participant: [{ userJid: PEER, rank: 1 }],
		messages: [{ message: { key: { remoteJid: GROUP, fromMe: false, id: '3EB0G1', participant: PEER },
			message: { conversation: 'group hi' }, messageTimestamp: 1700000010 } }] }],
	pushnames: [{ id: PEER, pushname: 'Zoë' }],
	phoneNumberToLidMappings: [{ pnJid: PEER, lidJid: PEER_LID }],
	...over,
}).finish();
const blobs = {
	'hist-recent': zlib.deflateSync(hist({})),
	'hist-initial': zlib.deflateSync(hist({ syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP, chunkOrder: 0 })),
	'hist-pushnames': zlib.deflateSync(proto.HistorySync.encode({
		syncType: proto.HistorySync.HistorySyncType.PUSH_NAME, pushnames: [{ id: PEER, pushname: 'Zoë' },
			{ id: '15550003333@s.whatsapp.net', pushname: 'Bob' }] }).finish()),
	'hist-empty': zlib.deflateSync(Buffer.alloc(0)),
	'hist-not-zlib': Buffer.from('not compressed at all, a padded block'),
};
for (const [name, plain] of Object.entries(blobs)) {
	const e = await U.encryptedStream(plain, 'md-msg-hist');
	const blob = fs.readFileSync(e.encFilePath);
	fs.unlinkSync(e.encFilePath);
	if (e.originalFilePath) fs.rmSync(e.originalFilePath, { force: true });
	const sha = crypto.createHash('sha256').update(plain).digest();
	// flags 0x06: the blob's own SHA-256 and the file hash below are checked
	// (as hsync does with the notification's), the MAC is Baileys'.
	write(path.join(corpus, 'wa-media'), `bl-${name}`, Buffer.concat([Buffer.from([0x06]), e.mediaKey, sha, blob]));
}
// One image blob under its own key string (flags: info 1 = image).
{
	const plain = bytes(300, 42);
	const e = await U.encryptedStream(plain, 'image');
	const blob = fs.readFileSync(e.encFilePath);
	fs.unlinkSync(e.encFilePath);
	if (e.originalFilePath) fs.rmSync(e.originalFilePath, { force: true });
	const sha = crypto.createHash('sha256').update(plain).digest();
	write(path.join(corpus, 'wa-media'), 'bl-image', Buffer.concat([Buffer.from([0x06 | 0x08]), e.mediaKey, sha, blob]));
}
console.log('seeds written under', corpus);
