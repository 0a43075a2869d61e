// SPDX-License-Identifier: GPL-3.0-or-later
// App state ("syncd", protocol-features.md 2) between wachat-sim's
// simulated phone and unmodified Baileys companions with
// appStateMacVerification on (patch and snapshot MACs checked by
// Baileys' own LTHash code).  The demo's account is made as tools/demo.sh
// makes it (its `ctl account|contact|history-set|appstate-*` lines,
// replayed), so the phone has authored an address-book entry for every
// contact and the demo's mutes, pin and archive.  Then:
//  1. Baileys links, gets the APP_STATE_SYNC_KEY_SHARE (the sim's key
//     id), and resyncAppState yields every contact's address-book name
//     (not its push name) and the demo's mute (always / until), pin and
//     archive; no MAC warning from Baileys.
//  2. A second companion links while the next snapshot's MAC is spoiled:
//     Baileys notices (its warning) and still gets the contacts.
//  3. chatModify mute, pin, archive, markRead on the first: the sim
//     stores each as the next version (its status shows the decoded
//     action, by that device), the second gets server_sync and the same
//     actions.
//  4. Faults: a forced conflict (409, the patch not stored); a spoiled
//     patch MAC (the second companion's Baileys refuses that patch); a
//     key not yet shared (Baileys parks the collection; an
//     APP_STATE_SYNC_KEY_REQUEST gets the key, the pin arrives; an
//     unknown id gets nothing); before that, 8,000 contacts: the patch
//     comes as externalMutations, a third companion's snapshot is over
//     1 MB.
// Needs SIM_TLS_CERT, SIM_TLS_KEY, NODE_EXTRA_CA_CERTS.  TAP.
//
// Baileys fetches app-state blobs from mmg.whatsapp.net: redirectMedia()
// (lib.mjs) sends them to the sim's media host.  Baileys buffers chat updates for chats it has not
// seen (conditional updates), so the script records what Baileys'
// processSyncAction emits (sock.ev.emit wrapped) rather than waiting for
// its chat store.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bail, finish, importPkg, ok, redirectMedia, rootPub, simBin, sleep, srcdir, startSim, until } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS');

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');
const ALL = ['critical_block', 'critical_unblock_low', 'regular_high', 'regular_low', 'regular'];

let sim;
try {
	sim = await startSim(['--tls-cert', cert, '--tls-key', key, '--media-port', '0']);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const mediaPort = (await sim.ctl('GET', '/admin/status')).body.history?.media_port;
if (!mediaPort)
	bail('the sim reports no media port');
redirectMedia(mediaPort);

// The demo's set-up, as tools/demo.sh runs it.
const demo = fs.readFileSync(path.join(srcdir, 'tools/demo.sh'), 'utf8').split('\n');
const PN = demo.map((l) => l.match(/^PN=(\d+)$/)).find(Boolean)?.[1];
const setup = demo.filter((l) => /^ctl (account|contact|history-set|appstate-)/.test(l));
if (!PN || !setup.some((l) => l.startsWith('ctl appstate-')))
	bail('tools/demo.sh has no PN= line or no ctl appstate- lines');
const sh = spawnSync('sh', ['-ec', `PN=${PN}; ctl() { "$SIM" ctl --admin "$ADMIN" "$@" >/dev/null; }\n${setup.join('\n')}`],
	{ env: { ...process.env, SIM: simBin, ADMIN: sim.admin }, encoding: 'utf8' });
if (sh.status !== 0)
	bail(`the demo's set-up failed: ${sh.stderr}`);

const clients = [];
const status = async () => (await sim.ctl('GET', `/admin/appstate?pn=${PN}`)).body;
const coll = (st, name) => st.collections.find((c) => c.name === name);
const actions = (st) => st.collections.flatMap((c) => c.actions.map((a) => ({ ...a, coll: c.name })));

async function client(name, pn = PN) {
	const dir = path.join(sim.tmp, `auth-${name}`);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const c = { name, pn, state, ev: [], upd: [], warns: [] };
	const log = (lvl) => (o, m) => {
		if (lvl === 'warn' || lvl === 'error')
			c.warns.push(`${typeof o === 'string' ? o : m ?? ''} ${typeof o === 'object' ? JSON.stringify(o?.error ?? o?.err ?? '') : ''}`);
	};
	const logger = { level: 'warn', child() { return logger; }, trace() {}, debug() {}, info() {},
		warn: log('warn'), error: log('error'), fatal: log('error') };
	c.connect = () => {
		c.sock = makeWASocket({
			waWebSocketUrl: sim.url.replace(/^ws:/, 'wss:'),
			auth: c.state,
			logger,
			browser: baileys.Browsers.ubuntu('Chrome'),
			connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 10000,
			markOnlineOnConnect: false,
			shouldSyncHistoryMessage: () => false,
			appStateMacVerification: { patch: true, snapshot: true },
			fireInitQueries: true,
		});
		const sock = c.sock;
		sock.ev.on('creds.update', saveCreds);
		sock.ev.on('connection.update', (d) => { if (c.sock === sock) c.ev.push(d); });
		// What processSyncAction emits, before Baileys' buffer holds it.
		const emit = sock.ev.emit.bind(sock.ev);
		sock.ev.emit = (e, d) => {
			if (e === 'chats.update' || e === 'contacts.upsert' || e === 'contacts.update')
				for (const x of d)
					c.upd.push({ e, ...x });
			return emit(e, d);
		};
	};
	c.wait = async (ms, what, pred) => {
		const x = await until(ms, () => c.ev.find(pred));
		if (!x)
			throw new Error(`${name}: no ${what} within ${ms} ms`);
		return x;
	};
	clients.push(c);
	return c;
}

async function pair(c, keyWait = 30000) {
	c.connect();
	const { qr } = await c.wait(60000, 'a QR', (x) => x.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${c.pn}`, qr);
	await c.wait(60000, 'the 515 restart', (x) => x.connection === 'close');
	c.ev = [];
	c.connect();
	const open = await c.wait(60000, 'open', (x) => x.connection === 'open' || x.connection === 'close');
	const keyId = await until(keyWait, () => c.state.creds.myAppStateKeyId);
	return { scan: scan.status, open: open.connection === 'open', keyId };
}

const chatUpd = (c, id, field) => c.upd.filter((u) => u.e === 'chats.update' && u.id === id && field in u);
const last = (v) => v[v.length - 1];
const macWarns = (c) => c.warns.filter((w) => /verification failed|patch mac|failed to decode patch|Invalid/i.test(w));
const hex = (b64) => Buffer.from(b64, 'base64').toString('hex');

try {
	const st0 = await status();
	const book = actions(st0).filter((a) => a.action?.kind === 'contact');
	const accts = (await sim.ctl('GET', '/admin/accounts')).body.filter((a) => a.kind === 'contact');
	ok(book.length >= 3 && book.length === accts.filter((a) => a.contact_of === PN).length,
		`the phone holds an address-book entry for each of the demo's ${book.length} contacts`, { book: book.length });
	const mutes = actions(st0).filter((a) => a.action?.kind === 'mute' && a.action.flag);
	const always = mutes.find((a) => a.action.mute_end_ms === -1);
	const until8 = mutes.find((a) => a.action.mute_end_ms > Date.now());
	const pinned = actions(st0).find((a) => a.action?.kind === 'pin' && a.action.flag);
	const archived = actions(st0).find((a) => a.action?.kind === 'archive' && a.action.flag);
	ok(always && until8 && pinned && archived, 'the demo has a chat muted always, one muted until a time, one pinned, one archived',
		actions(st0).map((a) => a.index));

	// 1. The first companion.
	const a1 = await client('one');
	const p1 = await pair(a1);
	ok(p1.scan === 200 && p1.open, 'Baileys links to the demo account and logs in', p1);
	ok(!!p1.keyId && hex(p1.keyId) === st0.keys[0].id, 'it gets the phone\'s app-state key share (the same key id)',
		{ baileys: p1.keyId && hex(p1.keyId), sim: st0.keys.map((k) => k.id) });
	await a1.sock.resyncAppState(ALL, true);
	const st1 = await status();
	const names = new Map(a1.upd.filter((u) => u.e === 'contacts.upsert' || u.e === 'contacts.update').map((u) => [u.id, u.name]));
	const wrong = book.filter((b) => names.get(b.action.chat) !== b.action.full_name);
	ok(wrong.length === 0, 'resyncAppState gives every contact its address-book name from the snapshot',
		{ wrong: wrong.slice(0, 3).map((b) => [b.action.chat, b.action.full_name, names.get(b.action.chat)]) });
	const push = new Map(accts.map((a) => [`${a.pn}@s.whatsapp.net`, a.name]));
	ok(book.every((b) => push.get(b.action.chat) && names.get(b.action.chat) !== push.get(b.action.chat)),
		'those names are not the push names', [...names].slice(0, 3));
	ok(last(chatUpd(a1, always.action.chat, 'muteEndTime'))?.muteEndTime === -1,
		`the chat muted always (${always.action.chat}) comes muted with end -1`, chatUpd(a1, always.action.chat, 'muteEndTime'));
	ok(last(chatUpd(a1, until8.action.chat, 'muteEndTime'))?.muteEndTime === until8.action.mute_end_ms,
		`the chat muted until ${until8.action.mute_end_ms} comes with that end`, chatUpd(a1, until8.action.chat, 'muteEndTime'));
	ok(last(chatUpd(a1, pinned.action.chat, 'pinned'))?.pinned > 0, `the pinned chat comes pinned`,
		chatUpd(a1, pinned.action.chat, 'pinned'));
	ok(last(chatUpd(a1, archived.action.chat, 'archived'))?.archived === true, 'the archived chat comes archived',
		chatUpd(a1, archived.action.chat, 'archived'));
	ok(macWarns(a1).length === 0, 'Baileys verified every snapshot MAC without a warning', macWarns(a1));
	ok(st1.collections.filter((c) => c.snapshots > 0).length === 5, 'the sim served a snapshot of each of the five collections',
		st1.collections.map((c) => [c.name, c.snapshots]));

	// 2. The second companion, with a spoiled snapshot MAC.
	await sim.ctl('POST', '/admin/appstate/fault', { pn: PN, kind: 'snapshot-mac' });
	const a2 = await client('two');
	const p2 = await pair(a2);
	ok(p2.open && p2.keyId === p1.keyId, 'a second companion links and gets the same key', p2);
	await a2.sock.resyncAppState(ALL, true);
	ok(macWarns(a2).length === 1 && /snapshot/i.test(macWarns(a2)[0]), 'the spoiled snapshot MAC is noticed (one warning)',
		a2.warns);
	const names2 = new Set(a2.upd.filter((u) => u.name).map((u) => u.id));
	ok(book.every((b) => names2.has(b.action.chat)), 'the second companion has the contacts all the same', [...names2]);

	// 3. chatModify on the first, server_sync to the second.
	const chat = (n) => book[n % book.length].action.chat;
	const mods = [
		['mute', { mute: Date.now() + 3600000 }, chat(0), 'regular_high', (a) => a.kind === 'mute' && a.flag],
		['pin', { pin: true }, chat(1), 'regular_low', (a) => a.kind === 'pin' && a.flag],
		['archive', { archive: true, lastMessages: [] }, chat(2), 'regular_low', (a) => a.kind === 'archive' && a.flag],
		['markRead', { markRead: false, lastMessages: [] }, chat(0), 'regular_low', (a) => a.kind === 'mark_read' && !a.flag],
	];
	for (const [what, mod, jid, cn, pred] of mods) {
		const before = coll(await status(), cn).version;
		await a1.sock.chatModify(mod, jid);
		const st = await until(10000, async () => {
			const s = await status();
			return coll(s, cn).version === before + 1 ? s : null;
		});
		const rec = st && coll(st, cn).actions.find((a) => a.action?.chat === jid && pred(a.action));
		ok(!!rec && rec.by === 'device 1' && rec.version === before + 1,
			`chatModify ${what} of ${jid}: stored as ${cn} version ${before + 1}, the sim decodes it`, st ? coll(st, cn) : 'no new version');
	}
	const got2 = await until(15000, () => {
		const m = last(chatUpd(a2, chat(0), 'muteEndTime'));
		const p = last(chatUpd(a2, chat(1), 'pinned'));
		const r = last(chatUpd(a2, chat(2), 'archived'));
		const u = last(chatUpd(a2, chat(0), 'unreadCount'));
		return m?.muteEndTime === mods[0][1].mute && p?.pinned > 0 && r?.archived === true && u?.unreadCount === -1;
	});
	ok(got2, 'the second companion gets server_sync and syncs the same mute, pin, archive and mark-unread',
		a2.upd.filter((u) => u.e === 'chats.update').slice(-6));
	const st3 = await status();
	ok(st3.server_syncs >= 4 && st3.accepted === 4 && macWarns(a2).length === 1,
		'four patches accepted, server_sync sent, no MAC warning on the way', { syncs: st3.server_syncs, accepted: st3.accepted, warns: a2.warns });

	// 4a. A forced conflict.
	const v4 = coll(st3, 'regular_high').version;
	await sim.ctl('POST', '/admin/appstate/fault', { pn: PN, kind: 'conflict' });
	await a1.sock.chatModify({ mute: null }, chat(0));
	const st4 = await until(10000, async () => { const s = await status(); return s.conflicts === 1 ? s : null; });
	ok(st4 && coll(st4, 'regular_high').version === v4 + 1 &&
	    coll(st4, 'regular_high').patches.at(-1).by === 'phone' &&
	    coll(st4, 'regular_high').actions.some((a) => a.action?.chat === chat(0) && a.action.flag),
		'a forced conflict: the phone moved the version, the companion\'s unmute got 409 and is not stored',
		st4 ? coll(st4, 'regular_high').patches.slice(-2) : 'no conflict counted');

	// 4b. A spoiled patch MAC, seen by the second companion.
	await sim.ctl('POST', '/admin/appstate/fault', { pn: PN, kind: 'patch-mac' });
	const mark2 = a2.upd.length;
	const warned2 = macWarns(a2).length;
	const mm = await sim.ctl('POST', '/admin/appstate/mute', { pn: PN, chat: chat(1), value: 'always' });
	ok(mm.status === 200 && coll(mm.body, 'regular_high').patches.at(-1).bad_mac, 'the phone mutes a chat in a patch with a spoiled MAC',
		mm.body);
	const bad = await until(15000, () => macWarns(a2).length > warned2);
	ok(bad && !a2.upd.slice(mark2).some((u) => u.id === chat(1) && 'muteEndTime' in u),
		'the second companion refuses that patch (its MAC warning) and does not mute the chat', a2.warns);

	// 4c. 8,000 contacts: external mutations, then a snapshot over 1 MB.
	const big = await sim.ctl('POST', '/admin/appstate/fault', { pn: PN, kind: 'big-snapshot' });
	ok(big.status === 200 && coll(big.body, 'critical_unblock_low').patches.at(-1).mutations === 8000,
		'the phone adds 8,000 contacts in one patch', big.status);
	const bulk2 = await until(60000, () => a2.upd.filter((u) => /^1555800/.test(u.id) && u.name).length >= 8000);
	const stb = await status();
	ok(bulk2 && coll(stb, 'critical_unblock_low').patches.at(-1).external,
		'the second companion gets them through server_sync, the patch\'s mutations as an external blob',
		{ n: a2.upd.filter((u) => /^1555800/.test(u.id)).length, warns: a2.warns.slice(-4), log: sim.log().split('\n').filter((l) => /appstate|app-state|media/.test(l)).slice(-12) });
	const a3 = await client('three');
	const p3 = await pair(a3);
	await a3.sock.resyncAppState(ALL, true);
	const blobs = (await sim.ctl('GET', '/admin/history/blobs')).body.filter((b) => b.kind === 'app-state');
	const n3 = a3.upd.filter((u) => /^1555800/.test(u.id) && u.name).length;
	ok(p3.open && n3 >= 8000 && blobs.some((b) => b.bytes > 1 << 20 && b.downloads > 0),
		'a third companion restores them from a snapshot blob over 1 MB', { n3, sizes: blobs.map((b) => b.bytes).slice(-5) });

	// 4d. A key the companions do not have.
	await sim.ctl('POST', '/admin/appstate/fault', { pn: PN, kind: 'new-key' });
	const pin = await sim.ctl('POST', '/admin/appstate/pin', { pn: PN, chat: chat(2), value: 'on' });
	const newKey = pin.body.keys.at(-1);
	ok(pin.status === 200 && newKey.withheld && newKey.current, 'the phone pins a chat with a new key it has not shared', pin.body.keys);
	await sleep(1500);
	ok(!chatUpd(a1, chat(2), 'pinned').some((u) => u.pinned > 0), 'Baileys cannot apply it without the key',
		chatUpd(a1, chat(2), 'pinned'));
	const me = baileys.jidNormalizedUser(a1.state.creds.me.id);
	const req = (ids) => a1.sock.relayMessage(me, { protocolMessage: { type: 7,
		appStateSyncKeyRequest: { keyIds: ids.map((k) => ({ keyId: Buffer.from(k, 'hex') })) } } },
	{ additionalAttributes: { category: 'peer', push_priority: 'high_force' } });
	await req(['0000ffffeeee']);
	const ask0 = await until(10000, async () => { const s = await status(); return s.key_requests >= 1 ? s : null; });
	ok(ask0 && ask0.key_shares === 3 && ask0.keys.at(-1).withheld, 'a request for an unknown key id gets no share', ask0);
	await req([newKey.id]);
	const pinned2 = await until(20000, () => chatUpd(a1, chat(2), 'pinned').some((u) => u.pinned > 0));
	const ask1 = await status();
	ok(pinned2 && ask1.key_shares === 4 && !ask1.keys.at(-1).withheld,
		'APP_STATE_SYNC_KEY_REQUEST gets the key shared, and the parked collection syncs the pin', { keys: ask1.keys, warns: a1.warns.slice(-3) });
	// 4e. An account whose app state is empty: the key share waits for
	// the phone's first patch.
	const EMPTY = '15550000099';
	await sim.ctl('POST', '/admin/accounts', { pn: EMPTY, name: 'empty' });
	const e1 = await client('empty', EMPTY);
	const pe = await pair(e1, 3000);
	ok(pe.open && !pe.keyId, 'a companion of an account with an empty app state gets no key share at first', pe);
	await sim.ctl('POST', '/admin/appstate/pin', { pn: EMPTY, chat: `${PN}@s.whatsapp.net`, value: 'on' });
	const ek = await until(15000, () => e1.state.creds.myAppStateKeyId);
	const es = (await sim.ctl('GET', `/admin/appstate?pn=${EMPTY}`)).body;
	ok(!!ek && hex(ek) === es.keys[0].id && es.key_shares === 1, 'the phone\'s first patch brings it the key share', { ek, keys: es.keys });

	// 5. The wire, through Baileys' query: pages, several collections in
	// one <sync>, errors.
	await sim.ctl('POST', '/admin/appstate/settings', { page: 2 });
	const kids = (n, tag) => (Array.isArray(n?.content) ? n.content : []).filter((x) => x.tag === tag);
	const sync = (cols) => a1.sock.query({ tag: 'iq', attrs: { to: 's.whatsapp.net', xmlns: 'w:sync:app:state', type: 'set' },
		content: [{ tag: 'sync', attrs: {}, content: cols.map((attrs) => ({ tag: 'collection', attrs })) }] });
	const r1 = await sync([{ name: 'regular_low', version: '0', return_snapshot: 'false' },
		{ name: 'no_such', version: '0', return_snapshot: 'false' },
		{ name: 'regular_high', version: '999', return_snapshot: 'false' }]);
	const cs = kids(kids(r1, 'sync')[0], 'collection');
	const pv = kids(kids(cs[0], 'patches')[0], 'patch').map((p) => Number(baileys.proto.SyncdPatch.decode(p.content).version.version));
	ok(cs.length === 3 && cs[0].attrs.has_more_patches === 'true' && pv.join() === '1,2',
		'one <sync> answers three collections; with a page of 2, patches 1 and 2 and has_more_patches', { attrs: cs.map((c) => c.attrs), pv });
	const code = (c) => kids(c, 'error')[0]?.attrs.code;
	ok(cs[1]?.attrs.type === 'error' && code(cs[1]) === '404' && cs[2]?.attrs.type === 'error' && code(cs[2]) === '400',
		'an unknown collection gets error 404, a version ahead of the server 400', cs.slice(1).map((c) => [c.attrs, code(c)]));
	const r2 = await sync([{ name: 'regular_low', version: '2', return_snapshot: 'false' }]);
	const pv2 = kids(kids(kids(kids(r2, 'sync')[0], 'collection')[0], 'patches')[0], 'patch')
		.map((p) => Number(baileys.proto.SyncdPatch.decode(p.content).version.version));
	ok(pv2.join() === '3,4', 'the next page starts after the version asked', pv2);
	const r3 = await a1.sock.query({ tag: 'iq', attrs: { to: 's.whatsapp.net', xmlns: 'w:sync:app:state', type: 'set' },
		content: [{ tag: 'sync', attrs: {}, content: [{ tag: 'collection',
			attrs: { name: 'regular_low', version: String(coll(await status(), 'regular_low').version), return_snapshot: 'false' },
			content: [{ tag: 'patch', attrs: {}, content: Buffer.from('not a patch') }] }] }] });
	const c3 = kids(kids(r3, 'sync')[0], 'collection')[0];
	ok(c3?.attrs.type === 'error' && code(c3) === '400', 'a patch that does not parse gets error 400', c3?.attrs);
} catch (e) {
	ok(false, `the scenario ran to its end: ${e.message}`, e.stack);
}
for (const c of clients)
	try { c.sock?.end(undefined); } catch { /* ended */ }
const code = await sim.stop();
ok(code === 0, 'wachat-sim exits cleanly', { code, stderr: sim.stderr().slice(-2000) });
process.exit(finish());
