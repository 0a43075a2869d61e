#!/usr/bin/env node
// Interop check of wachat's poll vote crypto (proto/poll.h,
// protocol-features.md 3.1) against Baileys (imported from node_modules
// by path): Baileys' decryptPollVote (lib/Utils/process-message.js) reads
// the votes wachat encrypts ($WA_POLL_TOOL enc), and
// getAggregateVotesInPollMessage (lib/Utils/messages.js) counts them
// under the right options; wachat ($WA_POLL_TOOL dec) reads the votes
// made with Baileys' own primitives as its decryptPollVote undoes them
// (hmacSign over the secret and "Poll Vote", aesEncryptGCM with the id
// and voter as AAD, proto.Message.PollVoteMessage); with the same IV the
// two encPayloads are byte for byte the same.  PN, LID and group JIDs.
// A vote made for another voter does not decrypt.  TAP.  JIDs made up.

import { spawnSync } from 'node:child_process';

const here = new URL('.', import.meta.url);
const P = await import(new URL(
	'node_modules/@whiskeysockets/baileys/lib/Utils/process-message.js',
	here));
const M = await import(new URL(
	'node_modules/@whiskeysockets/baileys/lib/Utils/messages.js', here));
const C = await import(new URL(
	'node_modules/@whiskeysockets/baileys/lib/Utils/crypto.js', here));
const { proto } = await import(new URL(
	'node_modules/@whiskeysockets/baileys/WAProto/index.js', here));

const TOOL = process.env.WA_POLL_TOOL;
if (!TOOL) {
	console.log('Bail out! WA_POLL_TOOL is not set');
	process.exit(1);
}

let n = 0, failed = 0;
function check(name, ok, why) {
	n++;
	if (!ok) {
		failed++;
		console.log(`not ok ${n} - ${name}`);
		if (why)
			console.log(`# ${why}`);
	} else
		console.log(`ok ${n} - ${name}`);
}

function tool(args) {
	const r = spawnSync(TOOL, args, { encoding: 'utf8', timeout: 60000 });
	return { status: r.status, out: r.stdout.trim(), err: r.stderr };
}

// Baileys' own key: decryptPollVote's computation, for encrypting.
function baileysVote(secret, id, creator, voter, iv, names) {
	const sign = Buffer.concat([Buffer.from(id), Buffer.from(creator),
		Buffer.from(voter), Buffer.from('Poll Vote'),
		new Uint8Array([1])]);
	const key0 = C.hmacSign(secret, new Uint8Array(32), 'sha256');
	const key = C.hmacSign(sign, key0, 'sha256');
	const plain = proto.Message.PollVoteMessage.encode({
		selectedOptions: names.map((o) => C.sha256(Buffer.from(o))),
	}).finish();
	return C.aesEncryptGCM(plain, key, iv,
	    Buffer.from(`${id}\u0000${voter}`));
}

const SECRET = Buffer.from(Array.from({ length: 32 }, (_, i) => 0x5A ^ i));
const IV = Buffer.from('000102030405060708090a0b', 'hex');
const OPTIONS = ['Pizza', 'Pasta', 'Salad', 'Tee ☕'];
const CASES = [
	['pn', '3EB0C0FFEE0011223344', '15551234567@s.whatsapp.net',
	    '15550001111@s.whatsapp.net', '15551234567@s.whatsapp.net'],
	['lid', '3EB0AABBCCDDEEFF0011', '999888777666555@lid',
	    '111222333444555@lid', '999888777666555@lid'],
	['group', '3EB0123456789ABCDEF0', '999888777666555@lid',
	    '111222333444555@lid', '120363000000000001@g.us'],
];

for (const [name, id, creator, voter, chat] of CASES) {
	for (const pick of [['Pasta'], ['Pizza', 'Tee ☕'], []]) {
		const what = `${name}, ${pick.length ? pick.join('+') : 'none'}`;
		// wachat encrypts, Baileys decrypts and counts
		const e = tool(['enc', SECRET.toString('hex'), id, creator,
			voter, IV.toString('hex'), ...pick]);
		check(`${what}: wachat encrypts a vote`, e.status === 0, e.err);
		const enc = Buffer.from(e.out, 'hex');
		const mine = baileysVote(SECRET, id, creator, voter, IV, pick);
		check(`${what}: the same bytes as Baileys' with the same IV`,
		    enc.equals(mine), `wachat ${e.out} Baileys ${mine.toString('hex')}`);
		let vote = null, why = '';
		try {
			vote = P.decryptPollVote({ encPayload: enc, encIv: IV },
			    { pollCreatorJid: creator, pollMsgId: id,
			    pollEncKey: SECRET, voterJid: voter });
		} catch (err) {
			why = String(err);
		}
		check(`${what}: Baileys' decryptPollVote reads it`, vote !== null, why);
		const agg = M.getAggregateVotesInPollMessage({
			message: { pollCreationMessageV3: {
				name: 'q', options: OPTIONS.map((o) => ({ optionName: o })),
				selectableOptionsCount: pick.length > 1 ? 0 : 1 } },
			pollUpdates: [{ pollUpdateMessageKey: { remoteJid: chat,
				participant: chat.endsWith('@g.us') ? voter : undefined,
				fromMe: false, id: 'V' + id },
				vote: vote ?? { selectedOptions: [] } }],
		}, 'me');
		const got = agg.filter((a) => a.voters.length > 0).map((a) => a.name);
		check(`${what}: getAggregateVotesInPollMessage counts it for ${JSON.stringify(pick)}`,
		    JSON.stringify(got) === JSON.stringify(pick) &&
		    agg.every((a) => a.voters.length === 0 ||
		    a.voters[0] === (chat.endsWith('@g.us') ? voter : chat)),
		    JSON.stringify(agg));
		// Baileys encrypts (another IV), wachat decrypts
		const iv2 = Buffer.from('a1a2a3a4a5a6a7a8a9aaabac', 'hex');
		const theirs = baileysVote(SECRET, id, creator, voter, iv2, pick);
		const d = tool(['dec', SECRET.toString('hex'), id, creator, voter,
			iv2.toString('hex'), theirs.toString('hex'), ...OPTIONS]);
		check(`${what}: wachat decrypts Baileys' vote to the same options`,
		    d.status === 0 && d.out === pick.join('\n'),
		    `status ${d.status} out ${JSON.stringify(d.out)} ${d.err}`);
	}
	const other = baileysVote(SECRET, id, creator, '15559999999@s.whatsapp.net',
	    IV, ['Pizza']);
	const bad = tool(['dec', SECRET.toString('hex'), id, creator, voter,
		IV.toString('hex'), other.toString('hex'), ...OPTIONS]);
	check(`${name}: a vote made for another voter does not decrypt`,
	    bad.status === 1 && /MAC|authentic/i.test(bad.err), bad.err);
}
console.log(`1..${n}`);
process.exit(failed > 0 ? 1 : 0);
