#!/usr/bin/env node
// App-state sync (proto/appstate.h; protocol-features.md 2.5-2.7) checked
// against Baileys 7's lib/Utils/chat-utils.js and lt-hash.js:
//   1. the LTHash of lists of value MACs (adds and subtracts) equals
//      LT_HASH_ANTI_TAMPERING.subtractThenAdd();
//   2. Baileys' encodeSyncdPatch() builds patches (mute, pin, archive,
//      star, markRead, a contact, each collection's state carried from one
//      patch to the next) and wachat ($WA_APPSTATE_TOOL apply) applies
//      each with every MAC verified, to the version and LTHash Baileys
//      computed, with the same actions;
//   3. wachat encodes patches (mute, pin, archive, star, markRead,
//      contact, deleteChat, clearChat, deleteForMe, pushName, and a
//      second patch overwriting the first mute) and Baileys'
//      decodePatches() decodes them with validateMacs on (no warning,
//      i.e. the patch MAC and the snapshot MAC verified) to the same
//      actions, hash and version;
//   4. a snapshot of Baileys-made records: wachat's snapshot apply and
//      Baileys' decodeSyncdSnapshot() give the same hash, and wachat
//      refuses it with a wrong MAC.
// Output is TAP.  JIDs, names and keys are made up.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';

const { proto } = await import('@whiskeysockets/baileys/WAProto/index.js');
const CU = await import('@whiskeysockets/baileys/lib/Utils/chat-utils.js');
const { LT_HASH_ANTI_TAMPERING } = await import('@whiskeysockets/baileys/lib/Utils/lt-hash.js');

const TOOL = process.env.WA_APPSTATE_TOOL;
if (!TOOL) {
	console.log('Bail out! WA_APPSTATE_TOOL is not set');
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
	const r = spawnSync(TOOL, args, { input: input ?? Buffer.alloc(0), maxBuffer: 1 << 28 });
	if (r.status !== 0)
		throw new Error(`${TOOL} ${args[0]} exited ${r.status}: ${r.stdout}${r.stderr}`);
	return r.stdout.toString().replace(/\n$/, '');
}

const hex = (b) => Buffer.from(b).toString('hex');
const str = (h) => (h === null ? null : Buffer.from(h, 'hex').toString('utf8'));
const ZERO = Buffer.alloc(128);

const KEY_DATA = crypto.createHash('sha256').update('wachat appstate interop key').digest();
const KEY_ID = Buffer.from('0000000000a1', 'hex');
const KEY_ID_B64 = KEY_ID.toString('base64');
const getKey = async (id) => (id === KEY_ID_B64 ? { keyData: KEY_DATA } : undefined);

// Baileys' indexValueMap -> the tool's MAP argument.
function mapArg(ivm) {
	const e = Object.entries(ivm).map(([im, v]) => `${hex(Buffer.from(im, 'base64'))}:${hex(v.valueMac)}`);
	return e.length ? e.join(',') : '-';
}

// The tool's CHANGES applied to a Baileys-style indexValueMap.
function applyChanges(ivm, changes) {
	const m = { ...ivm };
	if (changes === '-')
		return m;
	for (const c of changes.split(',')) {
		const [im, vm] = c.split(':');
		const k = Buffer.from(im, 'hex').toString('base64');
		if (vm === '-')
			delete m[k];
		else
			m[k] = { valueMac: Buffer.from(vm, 'hex') };
	}
	return m;
}

// 1. LTHash
await check('LTHash of 50 MACs, 20 of them subtracted again, equals LT_HASH_ANTI_TAMPERING', () => {
	const macs = Array.from({ length: 50 }, (_, i) => crypto.createHash('sha256').update(`m${i}`).digest());
	const add = tool(['lthash', ...macs.map((m) => '+' + hex(m))]);
	assert.equal(add, hex(LT_HASH_ANTI_TAMPERING.subtractThenAdd(ZERO, [], macs)));
	const sub = macs.slice(10, 30);
	const mixed = tool(['lthash', ...macs.map((m) => '+' + hex(m)), ...sub.map((m) => '-' + hex(m))]);
	const base = LT_HASH_ANTI_TAMPERING.subtractThenAdd(ZERO, [], macs);
	assert.equal(mixed, hex(LT_HASH_ANTI_TAMPERING.subtractThenAdd(base, sub, [])));
	const rest = [...macs.slice(0, 10), ...macs.slice(30)];
	assert.equal(mixed, hex(LT_HASH_ANTI_TAMPERING.subtractThenAdd(ZERO, [], rest)));
	// subtracting from zero wraps like Baileys'
	assert.equal(tool(['lthash', '-' + hex(macs[0])]), hex(LT_HASH_ANTI_TAMPERING.subtractThenAdd(ZERO, [macs[0]], [])));
});

// 2. Baileys encodes, wachat applies
const PEER = '491510000001@s.whatsapp.net';
const PEER2 = '491510000002@s.whatsapp.net';
const GROUP = '120363000000000001@g.us';
const NOW = 1700000000000;
const MSG = { key: { remoteJid: PEER, id: '3EB0C0FFEE', fromMe: true }, messageTimestamp: 1699999990 };
const baileysMods = [
	['mute 8 h', { mute: NOW + 8 * 3600 * 1000 }, PEER,
		(a) => { assert.equal(a.kind, 'mute'); assert.equal(a.flag, true); assert.equal(a.muteEnd, NOW + 8 * 3600 * 1000); }],
	['pin', { pin: true }, PEER,
		(a) => { assert.equal(a.kind, 'pin'); assert.equal(a.flag, true); }],
	['archive', { archive: true, lastMessages: [MSG] }, PEER,
		(a) => { assert.equal(a.kind, 'archive'); assert.equal(a.flag, true); assert.equal(a.rangeLast, 1699999990); }],
	['star', { star: { messages: [{ id: '3EB0C0FFEE', fromMe: true }], star: true } }, PEER,
		(a) => { assert.equal(a.kind, 'star'); assert.equal(a.flag, true); assert.equal(str(a.msgId), '3EB0C0FFEE'); assert.equal(a.fromMe, true); assert.equal(a.participant, null); }],
	['markRead false (marked unread)', { markRead: false, lastMessages: [MSG] }, PEER,
		(a) => { assert.equal(a.kind, 'markRead'); assert.equal(a.flag, false); }],
	['a contact', { contact: { fullName: 'Zoë Müller 🌸', firstName: 'Zoë', lidJid: '100000000001111@lid' } }, PEER2,
		(a) => { assert.equal(a.kind, 'contact'); assert.equal(str(a.fullName), 'Zoë Müller 🌸'); assert.equal(str(a.firstName), 'Zoë'); assert.equal(str(a.lid), '100000000001111@lid'); }],
	['unmute', { mute: null }, PEER,
		(a) => { assert.equal(a.kind, 'mute'); assert.equal(a.flag, false); assert.equal(a.muteEnd, 0); }],
	['unpin', { pin: false }, PEER,
		(a) => { assert.equal(a.kind, 'pin'); assert.equal(a.flag, false); }],
	['contact removed', { contact: null }, PEER2,
		(a, m) => { assert.equal(m.op, 1); }],
];
const bStates = {};
for (const [name, mod, jid, want] of baileysMods) {
	await check(`Baileys encodeSyncdPatch ${name}: wachat applies it, every MAC verified, to Baileys' state`, async () => {
		const p = CU.chatModificationToAppPatch(mod, jid);
		p.syncAction.timestamp = NOW;
		const before = bStates[p.type] ?? CU.newLTHashState();
		const { patch, state } = await CU.encodeSyncdPatch(p, KEY_ID_B64, before, getKey);
		const bytes = proto.SyncdPatch.encode(patch).finish();
		const out = JSON.parse(tool(['apply', hex(KEY_DATA), hex(KEY_ID), p.type, String(state.version),
			String(before.version), hex(before.hash), mapArg(before.indexValueMap)], bytes));
		assert.equal(out.ok, true, JSON.stringify(out));
		assert.equal(out.version, state.version);
		assert.equal(out.hash, hex(state.hash));
		// encodeSyncdPatch() writes the value MAC of a REMOVE back into
		// its map after its LTHash generator deleted the entry (its own
		// decode, and 2.6, delete it): compare with the generator's map.
		const want_map = { ...state.indexValueMap };
		if (p.operation === proto.SyncdMutation.SyncdOperation.REMOVE)
			delete want_map[Buffer.from(patch.mutations[0].record.index.blob).toString('base64')];
		assert.deepEqual(applyChanges(before.indexValueMap, out.changes), want_map);
		state.indexValueMap = want_map;
		assert.equal(out.mutations.length, 1);
		const m = out.mutations[0];
		assert.equal(m.err, 0);
		assert.equal(str(m.index), JSON.stringify(p.index));
		assert.equal(m.action.version, p.apiVersion);
		assert.equal(m.action.ts, NOW);
		if (p.index.length > 1)
			assert.equal(str(m.action.chat), jid);
		want(m.action, m);
		bStates[p.type] = state;
		// The same bytes with the patch MAC flipped are refused, state
		// kept (the tool starts from `before` each time).
		const bad = proto.SyncdPatch.decode(bytes);
		bad.patchMac[0] ^= 1;
		const r = JSON.parse(tool(['apply', hex(KEY_DATA), hex(KEY_ID), p.type, String(state.version),
			String(before.version), hex(before.hash), mapArg(before.indexValueMap)],
		proto.SyncdPatch.encode(bad).finish()));
		assert.equal(r.ok, false);
		assert.match(r.why, /patch MAC/);
	});
}

// 3. wachat encodes, Baileys decodes with MAC validation
const h = (s) => (s == null ? '-' : Buffer.from(s, 'utf8').toString('hex'));
function line(op, kind, o = {}) {
	return [op, kind, h(o.chat), h(o.msgId), h(o.participant), h(o.fullName), h(o.firstName), h(o.lid),
		h(o.pn), h(o.pushName), o.fromMe ? 1 : 0, o.flag ? 1 : 0, o.deleteMedia ? 1 : 0,
		o.deleteStarred ? 1 : 0, o.muteEnd ?? 0, o.rangeLast ?? 0, o.msgTs ?? 0].join('\t') + '\n';
}
const WTS = 1700000000123;	// the tool's now_ms
// A message ID with everything JSON.stringify escapes or leaves alone.
const ODD_ID = 'q"b\\s\b\f\n\r\t\u0001\u001f\u007f\u2028/<>&é😀';
const ours = [
	['regular_high', [line('set', 'mute', { chat: PEER, flag: true, muteEnd: WTS + 3600000 }),
		line('set', 'star', { chat: GROUP, msgId: 'ABC123', participant: PEER2, flag: true }),
		line('set', 'deleteChat', { chat: PEER2, deleteMedia: true, rangeLast: 1699999000 }),
		line('set', 'clearChat', { chat: GROUP, deleteStarred: false, deleteMedia: true }),
		line('set', 'deleteForMe', { chat: PEER, msgId: 'DEAD01', fromMe: true, deleteMedia: true, msgTs: 1699990000 }),
		line('set', 'star', { chat: PEER, msgId: ODD_ID, flag: false })],
	(m) => {
		const mu = m['["mute","' + PEER + '"]'].syncAction;
		assert.equal(mu.version, 2);
		assert.equal(mu.value.muteAction.muted, true);
		assert.equal(Number(mu.value.muteAction.muteEndTimestamp), WTS + 3600000);
		assert.equal(Number(mu.value.timestamp), WTS);
		const st = m[JSON.stringify(['star', GROUP, 'ABC123', '0', PEER2])].syncAction;
		assert.equal(st.value.starAction.starred, true);
		const dc = m[JSON.stringify(['deleteChat', PEER2, '1'])].syncAction;
		assert.equal(dc.version, 6);
		assert.equal(Number(dc.value.deleteChatAction.messageRange.lastMessageTimestamp), 1699999000);
		assert.ok(m[JSON.stringify(['clearChat', GROUP, '0', '1'])].syncAction.value.clearChatAction);
		const dm = m[JSON.stringify(['deleteMessageForMe', PEER, 'DEAD01', '1', '0'])].syncAction;
		assert.equal(dm.version, 3);
		assert.equal(dm.value.deleteMessageForMeAction.deleteMedia, true);
		assert.equal(Number(dm.value.deleteMessageForMeAction.messageTimestamp), 1699990000);
		// Our index JSON is byte for byte JSON.stringify's, escapes
		// included (mutationMap is keyed by the index bytes we sent).
		assert.equal(m[JSON.stringify(['star', PEER, ODD_ID, '0', '0'])].syncAction.value.starAction.starred, false);
	}],
	['regular_high', [line('set', 'mute', { chat: PEER, flag: true, muteEnd: -1 })],
		(m) => {
			const mu = m['["mute","' + PEER + '"]'].syncAction;
			assert.equal(Number(mu.value.muteAction.muteEndTimestamp), -1);
		}],
	['regular_low', [line('set', 'pin', { chat: PEER, flag: true }),
		line('set', 'archive', { chat: GROUP, flag: true, rangeLast: 1699999999 }),
		line('set', 'markRead', { chat: PEER2, flag: false })],
	(m) => {
		assert.equal(m['["pin_v1","' + PEER + '"]'].syncAction.value.pinAction.pinned, true);
		assert.equal(m['["pin_v1","' + PEER + '"]'].syncAction.version, 5);
		const ar = m['["archive","' + GROUP + '"]'].syncAction.value.archiveChatAction;
		assert.equal(ar.archived, true);
		assert.equal(Number(ar.messageRange.lastMessageTimestamp), 1699999999);
		assert.equal(m['["markChatAsRead","' + PEER2 + '"]'].syncAction.value.markChatAsReadAction.read, false);
	}],
	['critical_unblock_low', [line('set', 'contact', { chat: PEER2, fullName: 'Ада Лавлейс "Ada"', firstName: 'Ада', pn: PEER2 })],
		(m) => {
			const c = m['["contact","' + PEER2 + '"]'].syncAction.value.contactAction;
			assert.equal(c.fullName, 'Ада Лавлейс "Ada"');
			assert.equal(c.firstName, 'Ада');
			assert.equal(c.pnJid, PEER2);
		}],
	['critical_block', [line('set', 'pushName', { pushName: 'wachat 🐧' })],
		(m) => {
			assert.equal(m['["setting_pushName"]'].syncAction.value.pushNameSetting.name, 'wachat 🐧');
		}],
	['regular_low', [line('remove', 'pin', { chat: PEER, flag: true })],
		(m) => {
			assert.ok(m['["pin_v1","' + PEER + '"]']);
		}],
];
const wStates = {};
for (const [coll, lines, want] of ours) {
	await check(`wachat encodes ${lines.length} ${coll} mutation(s): Baileys decodePatches (validateMacs) reads them, same hash`, async () => {
		const before = wStates[coll] ?? CU.newLTHashState();
		const [patchHex, version, hash, changes] = tool(['encode', hex(KEY_DATA), hex(KEY_ID), coll,
			String(before.version), hex(before.hash), mapArg(before.indexValueMap)], lines.join('')).split(' ');
		const syncd = proto.SyncdPatch.decode(Buffer.from(patchHex, 'hex'));
		assert.equal(syncd.version, null);	// 2.7: no version sent
		// what Baileys' extractSyncdPatches does for a patch without one
		syncd.version = { version: before.version + 1 };
		const warnings = [];
		const logger = { warn: (o, m) => warnings.push(m ?? o), trace() {}, debug() {}, info() {}, error: (o, m) => warnings.push(m ?? o) };
		const { state, mutationMap } = await CU.decodePatches(coll, [syncd], before, getKey, {}, undefined, logger, true);
		assert.deepEqual(warnings, []);
		assert.equal(state.version, Number(version));
		assert.equal(hex(state.hash), hash);
		assert.equal(Object.keys(mutationMap).length, lines.length);
		assert.deepEqual(applyChanges(before.indexValueMap, changes), state.indexValueMap);
		want(mutationMap);
		// And a flipped patch MAC is caught by Baileys too (so the check
		// above is not vacuous).
		const bad = proto.SyncdPatch.decode(Buffer.from(patchHex, 'hex'));
		bad.version = { version: before.version + 1 };
		bad.patchMac[3] ^= 0x10;
		const w2 = [];
		await CU.decodePatches(coll, [bad], before, getKey, {}, undefined, { ...logger, warn: (o, m) => w2.push(m) }, true);
		assert.equal(w2.length, 1);
		wStates[coll] = state;
	});
}

// 4. a snapshot
await check('a snapshot of 30 Baileys-made contact records: wachat and decodeSyncdSnapshot agree; a wrong MAC is refused', async () => {
	let st = CU.newLTHashState();
	const records = [];
	for (let i = 0; i < 30; i++) {
		const p = CU.chatModificationToAppPatch({ contact: { fullName: `Kontakt ${i} ✓` } }, `4915100001${String(i).padStart(2, '0')}@s.whatsapp.net`);
		p.syncAction.timestamp = NOW + i;
		const r = await CU.encodeSyncdPatch(p, KEY_ID_B64, st, getKey);
		st = r.state;
		records.push(r.patch.mutations[0].record);
	}
	const snap = { version: { version: 30 }, records, keyId: { id: KEY_ID }, mac: Buffer.alloc(32) };
	// The MAC a server would put: Baileys' own hash of the records.
	const { state } = await CU.decodeSyncdSnapshot('critical_unblock_low', snap, getKey, undefined, false);
	const keys = (await import('whatsapp-rust-bridge')).expandAppStateKeys(KEY_DATA);
	const v = Buffer.alloc(8); v.writeBigUInt64BE(30n);
	snap.mac = crypto.createHmac('sha256', keys.snapshotMacKey).update(Buffer.concat([state.hash, v, Buffer.from('critical_unblock_low')])).digest();
	const bytes = proto.SyncdSnapshot.encode(snap).finish();
	const out = JSON.parse(tool(['snapshot', hex(KEY_DATA), hex(KEY_ID), 'critical_unblock_low'], bytes));
	assert.equal(out.ok, true, JSON.stringify(out).slice(0, 300));
	assert.equal(out.version, 30);
	assert.equal(out.hash, hex(state.hash));
	assert.equal(out.hash, hex(st.hash));	// = the hash the patches built
	assert.equal(out.mutations.length, 30);
	assert.equal(str(out.mutations[7].action.fullName), 'Kontakt 7 ✓');
	snap.mac[0] ^= 1;
	const bad = JSON.parse(tool(['snapshot', hex(KEY_DATA), hex(KEY_ID), 'critical_unblock_low'], proto.SyncdSnapshot.encode(snap).finish()));
	assert.equal(bad.ok, false);
	assert.match(bad.why, /snapshot MAC/);
});

console.log(`1..${n}`);
for (const r of results)
	console.log(r);
process.exit(failed ? 1 : 0);
