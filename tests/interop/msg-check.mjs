#!/usr/bin/env node
// Interop check of wachat's message layer (proto/msg.c) against Baileys'
// WAProto (proto.Message, protobufjs) and Baileys' own message builders:
//   1. every Message wachat builds (printed by $WA_MSG_TOOL build) decodes
//      in Baileys to exactly the expected fields, and wachat's padding is
//      removed by Baileys' unpadRandomMax16;
//   2. messages Baileys builds (text, reply, reaction, revoke, edit,
//      deviceSentMessage, padding) are read by wachat ($WA_MSG_TOOL parse)
//      into the expected flattened fields.
//   Media messages too (photo, voice note, document reply: issue 19).
// Output is TAP.  Inputs on both sides use made-up JIDs.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const { proto } = await import('@whiskeysockets/baileys/WAProto/index.js');
const U = await import('@whiskeysockets/baileys/lib/Utils/index.js');

const TOOL = process.env.WA_MSG_TOOL;
if (!TOOL) {
	console.log('Bail out! WA_MSG_TOOL is not set');
	process.exit(1);
}

const PEER_LID = '111222333444555@lid';
const PEER_PN = '15550001111@s.whatsapp.net';
const TEXT = 'hello \u00e9\u{1F600}';
const KEY = { remoteJid: PEER_LID, fromMe: true, id: '3EB0BBBBBBBBBBBBBBBBBB' };

let n = 0, failed = 0;
const results = [];
function check(name, fn) {
	try {
		fn();
		results.push(`ok ${++n} - ${name}`);
	} catch (e) {
		failed++;
		const msg = String(e.message).split('\n').map((l) => '# ' + l).join('\n');
		results.push(`not ok ${++n} - ${name}\n${msg}`);
	}
}

function tool(args, input) {
	const r = spawnSync(TOOL, args, { input, encoding: 'utf8', timeout: 60000 });
	if (r.status !== 0)
		throw new Error(`${TOOL} ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
	return r.stdout;
}

// Baileys' view of a Message: only fields present, longs as strings,
// enums as numbers.
const view = (buf) => proto.Message.toObject(proto.Message.decode(buf),
	{ longs: String, enums: Number, bytes: String });

// ---------------------------------------------------------------------------
// 1. wachat builds, Baileys reads

const built = new Map();
for (const line of tool(['build']).trim().split('\n')) {
	const [name, hex] = line.split(' ');
	built.set(name, Buffer.from(hex, 'hex'));
}

// The download fields of wa-msg-tool's media messages (protocol-features.md
// 1.6), as Baileys' toObject shows bytes: base64.
const bytes = (n, first) => Buffer.from([...Array(n).keys()].map((i) => first + i)).toString('base64');
const MEDIA = {
	url: 'https://mmg.example.net/d/f/Aa.enc', fileSha256: bytes(32, 0x40),
	fileLength: '2048', mediaKey: bytes(32, 0), fileEncSha256: bytes(32, 0x80),
	directPath: '/v/t62.7118-24/Aa.enc?ccb=11-4', mediaKeyTimestamp: '1764480000',
};

const expectBuilt = {
	text: { conversation: TEXT },
	reply: {
		extendedTextMessage: {
			text: 'yes',
			contextInfo: {
				stanzaId: '3EB0AAAAAAAAAAAAAAAAAA',
				participant: PEER_PN,
				quotedMessage: { conversation: 'are you there?' },
				mentionedJid: [PEER_PN],
			},
		},
	},
	reaction: { reactionMessage: { key: KEY, text: '\u{1F44D}', senderTimestampMs: '1764480000123' } },
	unreaction: { reactionMessage: { key: KEY, text: '', senderTimestampMs: '1764480000124' } },
	revoke: { protocolMessage: { key: KEY, type: 0 } },
	edit: {
		editedMessage: {
			message: {
				protocolMessage: {
					key: KEY, type: 14,
					editedMessage: { conversation: 'fixed text' },
					timestampMs: '1764480000125',
				},
			},
		},
	},
	dsm: { deviceSentMessage: { destinationJid: PEER_LID, message: { conversation: TEXT } } },
	'media-image': { imageMessage: { ...MEDIA, mimetype: 'image/jpeg',
		caption: 'at the harbour', height: 48, width: 64 } },
	'media-ptt': { audioMessage: { ...MEDIA, mimetype: 'audio/ogg; codecs=opus',
		seconds: 3, ptt: true, waveform: bytes(64, 0) } },
	'media-document': { documentMessage: { ...MEDIA, mimetype: 'application/pdf',
		title: 'minutes.pdf', fileName: 'minutes.pdf',
		contextInfo: { stanzaId: '3EB0AAAAAAAAAAAAAAAAAA', participant: PEER_PN,
			quotedMessage: { conversation: 'send the minutes' } } } },
};

for (const [name, want] of Object.entries(expectBuilt)) {
	check(`Baileys decodes wachat's ${name} message`, () => {
		assert.ok(built.has(name), `the tool printed no ${name}`);
		assert.deepStrictEqual(view(built.get(name)), want);
	});
}
for (const [name, k] of [['padded-16', 16], ['padded-1', 1]]) {
	check(`Baileys unpads wachat's ${name} plaintext`, () => {
		const b = built.get(name);
		assert.ok(b, `the tool printed no ${name}`);
		assert.equal(b.length, built.get('text').length + k);
		const un = U.unpadRandomMax16(b);
		assert.deepStrictEqual(view(un), { conversation: TEXT });
	});
}

// ---------------------------------------------------------------------------
// 2. Baileys builds, wachat reads

const quoted = { key: { remoteJid: PEER_LID, fromMe: false, id: '3EB0QQQQQQQQQQQQQQQQQQ' },
	message: { conversation: 'the question' } };
const tgt = { remoteJid: PEER_LID, fromMe: false, id: '3EB0TTTTTTTTTTTTTTTTTT' };
const enc = (m) => Buffer.from(proto.Message.encode(m).finish());

const textMsg = await U.generateWAMessageContent({ text: 'from baileys' }, {});
const replyMsg = U.generateWAMessageFromContent(PEER_LID,
	await U.generateWAMessageContent({ text: 'the answer' }, {}),
	{ quoted, userJid: PEER_PN }).message;
const reactMsg = await U.generateWAMessageContent({ react: { text: '\u2764', key: tgt } }, {});
const unreactMsg = await U.generateWAMessageContent({ react: { text: '', key: tgt } }, {});
const revokeMsg = await U.generateWAMessageContent({ delete: tgt }, {});
const editMsg = await U.generateWAMessageContent({ text: 'edited by baileys', edit: tgt }, {});
// Baileys' fan-out copy for its own devices (messages-send.ts meMsg).
const dsmMsg = { deviceSentMessage: { destinationJid: PEER_LID, message: textMsg },
	messageContextInfo: textMsg.messageContextInfo };

const K32 = Buffer.alloc(32, 7);
const cases = {
	conversation: [enc({ conversation: 'plain' }), { kind: 'TEXT', text: 'plain' }],
	text: [enc(textMsg), { kind: 'TEXT', text: 'from baileys', secret_len: 32 }],
	reply: [enc(replyMsg), { kind: 'REPLY', text: 'the answer', quoted_id: '3EB0QQQQQQQQQQQQQQQQQQ',
		quoted_text: 'the question' }],
	reaction: [enc(reactMsg), { kind: 'REACTION', emoji: '\u2764', target_id: tgt.id,
		target_remote_jid: PEER_LID, target_from_me: false,
		ts_ms: Number(reactMsg.reactionMessage.senderTimestampMs) }],
	unreaction: [enc(unreactMsg), { kind: 'REACTION', emoji: '', target_id: tgt.id }],
	revoke: [enc(revokeMsg), { kind: 'REVOKE', target_id: tgt.id, protocol_type: 0 }],
	edit: [enc(editMsg), { kind: 'EDIT', text: 'edited by baileys', target_id: tgt.id,
		protocol_type: 14 }],
	'edit-wrapped': [enc({ editedMessage: { message: { protocolMessage: { key: tgt, type: 14,
		editedMessage: { conversation: 'wrapped edit' }, timestampMs: 1764480000999 } } } }),
	{ kind: 'EDIT', text: 'wrapped edit', target_id: tgt.id, ts_ms: 1764480000999 }],
	dsm: [enc(dsmMsg), { kind: 'TEXT', text: 'from baileys', dsm_destination: PEER_LID,
		secret_len: 32 }],
	ephemeral: [enc({ ephemeralMessage: { message: { conversation: 'soon gone' } } }),
		{ kind: 'TEXT', text: 'soon gone', dsm_destination: null }],
	// Media (protocol-features.md 1.6), as Baileys' proto.Message
	// encodes the fields a sender fills (prepareWAMessageMedia).
	image: [enc({ imageMessage: { url: 'https://mmg.whatsapp.net/x.enc',
		mimetype: 'image/jpeg', caption: 'pic', fileSha256: K32, fileLength: 123456,
		height: 1200, width: 1600, mediaKey: K32, fileEncSha256: K32,
		directPath: '/v/t62/x.enc?ccb=11-4', mediaKeyTimestamp: 1764480000,
		jpegThumbnail: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) } }),
	{ kind: 'MEDIA', text: 'pic', media_type: 'image', media_caption: 'pic',
		media_mimetype: 'image/jpeg', media_size: 123456, media_width: 1600,
		media_height: 1200, media_key_len: 32, media_sha_len: 32, media_enc_sha_len: 32,
		media_direct_path: '/v/t62/x.enc?ccb=11-4', media_key_ts: 1764480000,
		media_thumb_len: 4 }],
	gif: [enc({ videoMessage: { mimetype: 'video/mp4', seconds: 3, gifPlayback: true,
		width: 320, height: 240, caption: 'lol' } }),
	{ kind: 'MEDIA', media_type: 'gif', media_seconds: 3, media_width: 320,
		media_caption: 'lol' }],
	ptv: [enc({ ptvMessage: { mimetype: 'video/mp4', seconds: 30 } }),
		{ kind: 'MEDIA', media_type: 'ptv', media_seconds: 30 }],
	ptt: [enc({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', seconds: 12, ptt: true,
		fileLength: 20480, waveform: Buffer.alloc(64, 50) } }),
	{ kind: 'MEDIA', media_type: 'ptt', media_seconds: 12, media_size: 20480,
		media_waveform_len: 64, text: null }],
	document: [enc({ documentWithCaptionMessage: { message: { documentMessage: {
		mimetype: 'application/pdf', fileName: 'report.pdf', pageCount: 12,
		fileLength: 2500000, caption: 'for Monday' } } } }),
	{ kind: 'MEDIA', media_type: 'document', media_file_name: 'report.pdf',
		media_pages: 12, media_size: 2500000, text: 'for Monday' }],
	sticker: [enc({ ephemeralMessage: { message: { stickerMessage: {
		mimetype: 'image/webp', width: 512, height: 512, isAnimated: true,
		fileLength: 20480 } } } }),
	{ kind: 'MEDIA', media_type: 'sticker', media_animated: true, media_width: 512 }],
	'padded-baileys': [Buffer.from(U.writeRandomPadMax16(enc({ conversation: 'padded' }))),
		{ kind: 'TEXT', text: 'padded' }],
};
// The quoted participant: Baileys puts the quoted sender (here our own
// user, since the quoted key has no participant and is not fromMe: the
// chat JID).
const replyCi = replyMsg.extendedTextMessage.contextInfo;
cases.reply[1].quoted_participant = replyCi.participant;

const input = Object.entries(cases).map(([k, [b]]) => `${k} ${b.toString('hex')}`).join('\n') + '\n';
const parsed = new Map();
for (const line of tool(['parse'], input).trim().split('\n')) {
	const o = JSON.parse(line);
	parsed.set(o.name, o);
}
for (const [name, [, want]] of Object.entries(cases)) {
	check(`wachat reads Baileys' ${name} message`, () => {
		const got = parsed.get(name);
		assert.ok(got, `the tool printed nothing for ${name}`);
		assert.equal(got.rc, 0, `wa_msg_parse failed: ${got.rc}`);
		for (const [k, v] of Object.entries(want))
			assert.deepStrictEqual(got[k], v, `${k}: ${JSON.stringify(got[k])} != ${JSON.stringify(v)}`);
	});
}

console.log(`1..${n}`);
for (const r of results)
	console.log(r);
process.exit(failed ? 1 : 0);
