#!/usr/bin/env node
// Interop check of wachat's reporting token (proto/reporting.c) against
// Baileys' getMessageReportingToken (lib/Utils/reporting-utils.js,
// imported from node_modules by path): the same serialized Message, id and
// JIDs go to both, and the 16-byte tokens must be equal, or both must say
// that none is due.  The Messages are those wachat builds ($WA_MSG_TOOL
// build, with a messageSecret appended as proto/dm-send.c does), those
// Baileys' generateWAMessageContent builds (text, a link, a reply with
// context info, a forward, a location, an edit, a delete, a poll, a
// reaction), and hand-made ones (image, document, sticker, view-once,
// context info alone).  Each is tried with PN, LID and group JIDs.
// Output is TAP.  JIDs are made up.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const here = new URL('.', import.meta.url);
const R = await import(new URL(
	'node_modules/@whiskeysockets/baileys/lib/Utils/reporting-utils.js', here));
const { proto } = await import(new URL(
	'node_modules/@whiskeysockets/baileys/WAProto/index.js', here));
const U = await import(new URL(
	'node_modules/@whiskeysockets/baileys/lib/Utils/index.js', here));

const MSG_TOOL = process.env.WA_MSG_TOOL;
const TOOL = process.env.WA_REPORTING_TOOL;
if (!TOOL || !MSG_TOOL) {
	console.log('Bail out! WA_REPORTING_TOOL or WA_MSG_TOOL is not set');
	process.exit(1);
}

const SECRET = Buffer.from(Array.from({ length: 32 }, (_, i) => 0xA0 ^ i));
const JIDS = [
	['pn', '15551234567@s.whatsapp.net', '15550001111@s.whatsapp.net'],
	['lid', '999888777666555@lid', '111222333444555@lid'],
	['group', '999888777666555@lid', '120363000000000001@g.us'],
];
const ID = '3EB0C0FFEE00112233445566';
const KEY = { remoteJid: '111222333444555@lid', fromMe: true,
	id: '3EB0BBBBBBBBBBBBBBBBBB' };

function run(cmd, args, input) {
	const r = spawnSync(cmd, args, { input, encoding: 'utf8', timeout: 60000 });
	if (r.status !== 0)
		throw new Error(`${cmd} ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
	return r.stdout;
}

const cases = [];	// [name, Buffer]

// 1. What wachat builds, with the secret appended as wachat does.
for (const line of run(MSG_TOOL, ['build'], '').trim().split('\n')) {
	const [name, hex] = line.split(' ');
	if (name.startsWith('padded'))
		continue;
	const b = Buffer.from(hex, 'hex');
	const tail = Buffer.concat([Buffer.from('9a02221a20', 'hex'), SECRET]);
	cases.push([`wachat-${name}`, Buffer.concat([b, tail])]);
}

// 2. What Baileys builds (each gets its own random messageSecret).
const built = {
	text: { text: 'hello \u00e9\u{1F600}' },
	link: { text: 'see https://example.com/a?b=c' },
	reply: { text: 'yes', contextInfo: { stanzaId: '3EB0AAAAAAAAAAAAAAAAAA',
		participant: '15550001111@s.whatsapp.net',
		quotedMessage: { conversation: 'are you there?' },
		mentionedJid: ['15550001111@s.whatsapp.net'] } },
	forward: { text: 'fwd', contextInfo: { forwardingScore: 3,
		isForwarded: true } },
	location: { location: { degreesLatitude: 48.1, degreesLongitude: 11.5,
		name: 'here' } },
	edit: { edit: KEY, text: 'fixed' },
	delete: { delete: KEY },
	poll: { poll: { name: 'lunch?', values: ['yes', 'no'],
		selectableCount: 1 } },
	reaction: { react: { key: KEY, text: '\u{1F44D}' } },
};
for (const [name, content] of Object.entries(built)) {
	const m = await U.generateWAMessageContent(content, {});
	cases.push([`baileys-${name}`, Buffer.from(proto.Message.encode(m).finish())]);
}

// 3. Hand-made.
const ctx = { messageSecret: SECRET };
const fwd = { forwardingScore: 2, isForwarded: true, stanzaId: 'X' };
const hand = {
	image: { imageMessage: { url: 'https://mmg.example/x', mimetype:
		'image/jpeg', caption: 'a cat', fileSha256: Buffer.alloc(32, 1),
		fileLength: 12345, height: 640, width: 480, mediaKey:
		Buffer.alloc(32, 2), contextInfo: fwd }, messageContextInfo: ctx },
	document: { documentMessage: { url: 'https://mmg.example/d', mimetype:
		'application/pdf', title: 'paper', fileName: 'paper.pdf',
		pageCount: 3, contextInfo: fwd }, messageContextInfo: ctx },
	sticker: { stickerMessage: { url: 'https://mmg.example/s', fileSha256:
		Buffer.alloc(32, 3), mimetype: 'image/webp', height: 512,
		width: 512 }, messageContextInfo: ctx },
	viewonce: { viewOnceMessage: { message: { imageMessage: { caption:
		'once' } } }, conversation: 'and text', messageContextInfo: ctx },
	contextonly: { messageContextInfo: ctx },
};
for (const [name, obj] of Object.entries(hand))
	cases.push([`hand-${name}`, Buffer.from(proto.Message.encode(
	    proto.Message.fromObject(obj)).finish())]);

// Baileys' answer: the token's hex, or 'none'.
async function baileys(bytes, from, to) {
	const msg = proto.Message.decode(bytes);
	if (!R.shouldIncludeReportingToken(msg))
		return 'none';
	const node = await R.getMessageReportingToken(bytes, msg,
	    { id: ID, fromMe: false, remoteJid: to, participant: from });
	if (node === null)
		return 'none';
	assert.equal(node.tag, 'reporting');
	assert.equal(node.content[0].tag, 'reporting_token');
	assert.equal(node.content[0].attrs.v, '2');
	assert.equal(node.content[0].content.length, 16);
	return Buffer.from(node.content[0].content).toString('hex');
}

const lines = [], want = [];
for (const [name, bytes] of cases)
	for (const [jn, from, to] of JIDS) {
		lines.push(`${name}/${jn} ${bytes.toString('hex')} ${ID} ${from} ${to}`);
		want.push([`${name}/${jn}`, await baileys(bytes, from, to)]);
	}
const got = new Map(run(TOOL, [], lines.join('\n') + '\n').trim().split('\n')
	.map((l) => { const i = l.indexOf(' '); return [l.slice(0, i), l.slice(i + 1)]; }));

let n = 0, failed = 0, tokens = 0;
const out = [];
for (const [name, b] of want) {
	const c = got.get(name);
	if (c === b) {
		out.push(`ok ${++n} - ${name}: ${b}`);
		tokens += b !== 'none';
	} else {
		failed++;
		out.push(`not ok ${++n} - ${name}\n# Baileys: ${b}\n# wachat:  ${c}`);
	}
}
// The check is worth something only if most cases carry a token.
out.push(tokens >= want.length / 2 ? `ok ${++n} - ${tokens} of ${want.length} cases carry a token`
    : `not ok ${++n} - only ${tokens} of ${want.length} cases carry a token`);
failed += tokens >= want.length / 2 ? 0 : 1;
console.log(`1..${n}`);
console.log(out.join('\n'));
process.exit(failed ? 1 : 0);
