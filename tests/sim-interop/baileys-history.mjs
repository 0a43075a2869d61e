// SPDX-License-Identifier: GPL-3.0-or-later
// History sync from wachat-sim's simulated phone to an unmodified Baileys
// client (protocol.md 12, 14.1-14.2): the phone holds a generated history;
// after Baileys links (mock-phone QR scan) and uploads its prekeys, the
// phone stores each HistorySync chunk encrypted on the sim's HTTPS media
// host and sends the notification as a peer message.  Baileys (its own
// Signal, media decryption, zlib and protobuf code) must deliver every
// chat and message the sim holds through messaging-history.set, with the
// exact texts, and send a hist_sync receipt per notification.  Then an
// on-demand request (fetchMessageHistory) answered with the exact older
// messages, and faulty blobs (a corrupt one, a withdrawn one: 404).
// Needs SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS (the same
// self-signed certificate).  TAP.
//
// Baileys 7.0.0-rc14 downloads history from its fixed DEF_MEDIA_HOST
// (mmg.whatsapp.net; lib/Utils/messages-media.js getUrlFromDirectPath)
// with the global fetch, not from the media_conn hosts: redirectMedia()
// (lib.mjs) sends https://mmg.whatsapp.net/... to the sim's media host
// instead (path and query unchanged).
import crypto from 'node:crypto';
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, redirectMedia, rootPub, sleep, startSim, until, within } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS');

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--tls-cert', cert, '--tls-key', key, ...(process.env.SIM_VERBOSE ? ['-v'] : [])]);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const st0 = (await sim.ctl('GET', '/admin/status')).body;
const mediaPort = st0.history?.media_port;
if (!mediaPort)
	bail('the sim reports no media port');
const mediaHost = `127.0.0.1:${mediaPort}`;
const realFetch = globalThis.fetch;	/* straight to the media host */
const redirects = redirectMedia(mediaPort);

const ALICE = '15550000001';
const BOB = '15550000002';
const CAROL = '15550000004';
const clients = [];

const text = (m) => m.message?.conversation ?? m.message?.extendedTextMessage?.text;

async function client(name, pn, full = true) {
	const dir = path.join(sim.tmp, `auth-${name}`);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const c = { name, pn, state, saveCreds, ev: [], chats: new Map(), msgs: new Map(), contacts: new Map(), sets: [] };
	c.connect = () => {
		c.sock = makeWASocket({
			waWebSocketUrl: sim.url.replace(/^ws:/, 'wss:'),
			auth: c.state,
			logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'),
			connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 5000,
			markOnlineOnConnect: false,
			syncFullHistory: full,
			shouldSyncHistoryMessage: () => true,
			fireInitQueries: true,
		});
		const sock = c.sock;
		sock.ev.on('creds.update', c.saveCreds);
		sock.ev.on('connection.update', (d) => { if (c.sock === sock) c.ev.push({ e: 'connection.update', d }); });
		sock.ev.on('messaging-history.set', (d) => {
			c.sets.push({ syncType: d.syncType, progress: d.progress, chats: d.chats.length, messages: d.messages.length,
				session: d.peerDataRequestSessionId });
			for (const ch of d.chats)
				c.chats.set(ch.id, ch);
			for (const m of d.messages)
				c.msgs.set(m.key.id, m);
			for (const k of d.contacts)
				c.contacts.set(k.id, { ...(c.contacts.get(k.id) ?? {}), ...k });
			if (d.syncType === 6)
				c.onDemand = d;
		});
	};
	c.wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const x = c.ev.find(pred);
			if (x)
				return x;
			await sleep(20);
		}
	})(), `${name}: ${what}`);
	clients.push(c);
	return c;
}

async function pair(c) {
	c.connect();
	const { d } = await c.wait(60000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${c.pn}`, d.qr);
	await c.wait(60000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	c.state.creds.me.name = c.name;
	c.ev = [];
	c.connect();
	const open = await c.wait(60000, 'open', (x) => x.e === 'connection.update' &&
		(x.d.connection === 'open' || x.d.connection === 'close'));
	return { scan, open: open.d.connection === 'open' };
}

const hist = async (pn) => (await sim.ctl('GET', `/admin/history?pn=${pn}`)).body;
const chat = async (pn, jid) => (await sim.ctl('GET', `/admin/history/chat?pn=${pn}&jid=${encodeURIComponent(jid)}`)).body;
const blobs = async () => (await sim.ctl('GET', '/admin/history/blobs')).body;
const hstatus = async () => (await sim.ctl('GET', '/admin/history/status')).body;

// Compare what client c got with what the sim holds for pn: every chat,
// every message (id, text, from_me, time), group names.
async function compare(c, pn, label) {
	const h = await hist(pn);
	const missingChats = h.chat_list.filter((x) => !c.chats.has(x.jid)).map((x) => x.jid);
	ok(missingChats.length === 0 && c.chats.size === h.chats,
		`${label}: Baileys has every chat the phone holds (${h.chats})`, { missing: missingChats.slice(0, 5), got: c.chats.size });
	let bad = [];
	let total = 0;
	const scripts = { latin: /é|ü|ç|ñ|ß|ã/, cyrillic: /[\u0400-\u04ff]/, greek: /[\u0370-\u03ff]/, arabic: /[\u0600-\u06ff]/,
		cjk: /[\u4e00-\u9fff]/, emoji: /\p{Extended_Pictographic}/u };
	const seen = {};
	for (const x of h.chat_list) {
		const cm = await chat(pn, x.jid);
		for (const m of cm.messages) {
			total++;
			const b = c.msgs.get(m.id);
			const bt = b ? text(b) : undefined;
			if (!b || bt !== m.text || !!b.key.fromMe !== m.from_me || b.key.remoteJid !== x.jid ||
			    Number(b.messageTimestamp) !== m.ts ||
			    (x.group && !m.from_me && b.key.participant !== m.sender) ||
			    (m.quoted_id && b.message?.extendedTextMessage?.contextInfo?.stanzaId !== m.quoted_id)) {
				if (bad.length < 5)
					bad.push({ chat: x.jid, sim: m, baileys: b ? { key: b.key, text: bt, ts: String(b.messageTimestamp) } : null });
				else
					bad.push(null);
			}
			for (const [k, re] of Object.entries(scripts))
				if (!seen[k] && re.test(m.text) && bt === m.text)
					seen[k] = m.text;
		}
		const bc = c.chats.get(x.jid);
		if (bc && x.group && bc.name !== x.name && bad.length < 5)
			bad.push({ chat: x.jid, name: x.name, baileys_name: bc.name });
	}
	ok(total === h.messages && c.msgs.size === h.messages,
		`${label}: Baileys has as many messages as the phone holds (${h.messages})`, { total, baileys: c.msgs.size });
	ok(bad.length === 0, `${label}: every message matches the phone's: id, chat, sender, time, exact text, quote; group names too`,
		{ mismatches: bad.length, first: bad.filter(Boolean) });
	ok(Object.keys(seen).length === Object.keys(scripts).length,
		`${label}: exact texts in Latin with diacritics, Cyrillic, Greek, Arabic, CJK and emoji came through`, seen);
	return h;
}

try {
	for (const [pn, name] of [[ALICE, 'alice'], [BOB, 'bob'], [CAROL, 'carol']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	// 1. A history of 25 chats, 1,500 messages, chunks of 250.
	const set = await sim.ctl('POST', '/admin/history', { pn: ALICE, chats: 25, messages: 1500, seed: 42, chunk: 250 });
	ok(set.status === 200 && set.body.chats === 25 && set.body.messages === 1500 && set.body.groups === 5,
		'the phone gets a history: 25 chats (5 groups), 1,500 messages', set.body);
	const accts = (await sim.ctl('GET', '/admin/accounts')).body;
	const made = accts.filter((a) => a.kind === 'contact' && a.pn.startsWith('1555700'));
	ok(made.length === 20 && made.every((a) => a.name),
		'its 20 contacts exist, with names', made.slice(0, 3).map((a) => [a.pn, a.name]));
	const groups = (await sim.ctl('GET', '/admin/groups')).body;
	const hgroups = (await hist(ALICE)).chat_list.filter((x) => x.group);
	ok(hgroups.length === 5 && hgroups.every((g) => groups.some((x) => x.jid === g.jid && x.subject === g.name && x.size >= 3)),
		'its groups are in the group table with their subjects and members', hgroups.map((g) => g.jid));

	const alice = await client('alice', ALICE);
	const pa = await pair(alice);
	ok(pa.scan.status === 200 && pa.open, 'Baileys pairs as alice:1 and logs in', pa);
	const done = await until(60000, async () => {
		const s = await hstatus();
		return s.chunks_sent > 0 && s.hist_sync_receipts >= s.chunks_sent && alice.msgs.size >= 1500 &&
			alice.sets.some((x) => x.syncType === 4) ? s : null;
	});
	const hs = await hstatus();
	ok(!!done, 'every notification is answered with a hist_sync receipt, and Baileys holds 1,500 messages',
		{ status: hs, baileys: alice.msgs.size, sets: alice.sets.length });
	const bl = (await blobs()).filter((b) => b.kind === 'chunk' && b.pn === ALICE);
	const types = bl.map((b) => b.sync_type);
	ok(bl.length >= 7 && types[0] === 0 && types.at(-1) === 4 && types.includes(3) && types.includes(2) &&
		bl.every((b, i) => b.chunk_order === i) && bl.every((b, i) => i === 0 || b.progress >= bl[i - 1].progress) &&
		bl.at(-2).progress === 100 && bl.every((b) => b.messages <= 250 || b.sync_type === 0),
		'chunks: INITIAL_BOOTSTRAP, RECENT, FULL, PUSH_NAME in chunk order, progress rising to 100, at most 250 messages',
		bl.map((b) => [b.sync_type, b.chunk_order, b.progress, b.messages]));
	// (Baileys also fetches the phone's app-state snapshots, once the
	// key share has come: kind app-state, not counted here.)
	const appState = (await blobs()).filter((b) => b.kind.startsWith('app-state')).reduce((n, b) => n + b.downloads, 0);
	ok(bl.every((b) => b.downloads === 1 && b.receipt) && redirects.count === bl.length + appState,
		'Baileys downloaded each blob once from the HTTPS media host (trusting the test CA) and receipted each',
		{ blobs: bl.map((b) => [b.downloads, b.receipt]), redirected: redirects.count, appState, failed: redirects.errors });
	// (Baileys' event buffer may merge sets that come close together.)
	ok(alice.sets[0]?.chats === 25 && alice.sets.at(-1)?.syncType === 4,
		'Baileys\' first set carries every chat (the bootstrap), its last is PUSH_NAME', alice.sets);
	const h = await compare(alice, ALICE, 'alice');
	const named = h.chat_list.filter((x) => !x.group);
	const pushOk = named.every((x) => alice.contacts.get(x.jid)?.notify === x.name || alice.contacts.get(x.jid)?.name === x.name);
	ok(pushOk, 'push names and chat names of the contacts reached Baileys',
		named.slice(0, 3).map((x) => [x.jid, x.name, alice.contacts.get(x.jid)]));

	// 2. The media host: hash= must match, unknown paths are 404.
	const b0 = bl[0];
	const full = (await blobs()).find((b) => b.seq === b0.seq);
	const hash = Buffer.from(full.enc_sha256, 'hex').toString('base64url');
	const good = await realFetch(`https://${mediaHost}${b0.path}&hash=${hash}&mms-type=md-msg-hist&__wa-mms=`);
	const body = Buffer.from(await good.arrayBuffer());
	ok(good.status === 200 && body.length === b0.bytes &&
		crypto.createHash('sha256').update(body).digest('hex') === full.enc_sha256,
		'GET with the right hash= serves the blob (its SHA-256 is the notification\'s)', { status: good.status, len: body.length });
	await sim.ctl('POST', '/admin/history/media', { delay_ms: 600 });
	const t0 = Date.now();
	const slow = await realFetch(`https://${mediaHost}${b0.path}&hash=${hash}`);
	const slowLen = (await slow.arrayBuffer()).byteLength;
	const slowMs = Date.now() - t0;
	await sim.ctl('POST', '/admin/history/media', { delay_ms: 0 });
	ok(slow.status === 200 && slowLen === b0.bytes && slowMs >= 550,
		`with a media delay of 600 ms the blob comes whole after ${slowMs} ms`, { status: slow.status, slowLen });
	const wrong = await realFetch(`https://${mediaHost}${b0.path}&hash=AAAA`);
	const none = await realFetch(`https://${mediaHost}/v/t62.7119-24/1_2_3_n.enc?ccb=11-4`);
	ok(wrong.status === 404 && none.status === 404, 'a wrong hash= and an unknown path get 404',
		{ wrong: wrong.status, none: none.status });

	// 3. On demand, as Baileys asks for older messages than it holds: a
	// phone that sends FULL chunks only when the companion asks for a full
	// sync (full: if-asked) and a Baileys client that does not
	// (syncFullHistory false: DeviceProps.requireFullSync false).
	const cset = await sim.ctl('POST', '/admin/history', { pn: CAROL, chats: 6, messages: 300, seed: 3, chunk: 100, full: 'if-asked' });
	ok(cset.status === 200 && cset.body.full === 'if-asked', 'carol\'s phone sends FULL chunks only when asked', cset.body);
	const carol = await client('carol', CAROL, false);
	const pc = await pair(carol);
	ok(pc.scan.status === 200 && pc.open, 'Baileys pairs as carol:1 without a full sync', pc);
	const cdone = await until(60000, async () => {
		const bs = (await blobs()).filter((b) => b.pn === CAROL);
		return bs.length > 0 && bs.at(-1).sync_type === 4 && bs.every((b) => b.receipt) ? bs : null;
	});
	const ch = await hist(CAROL);
	const cutoff = ch.now - 365 * 86400;
	const cbig = ch.chat_list[0];
	const cmsgs = (await chat(CAROL, cbig.jid)).messages;
	const k = cmsgs.findIndex((m) => carol.msgs.has(m.id));
	const held = [...carol.msgs.values()];
	ok(!!cdone && cdone.every((b) => b.sync_type !== 2) && k >= 10 &&
		cmsgs.slice(k).every((m) => carol.msgs.has(m.id)) && cmsgs[k - 1].ts < cutoff,
		'without a full sync: bootstrap, RECENT and PUSH_NAME only; the chat\'s older messages are not sent',
		{ blobs: cdone?.map((b) => [b.sync_type, b.messages]), k, held: held.length });
	const odBefore = (await hstatus()).on_demand_answered;
	carol.onDemand = null;
	const anchor = cmsgs[k];
	await carol.sock.fetchMessageHistory(10, { remoteJid: cbig.jid, fromMe: anchor.from_me, id: anchor.id }, anchor.ts * 1000);
	const od = await until(60000, () => carol.onDemand);
	const want = cmsgs.slice(k - 10, k).map((m) => m.id).sort();
	const got = (od?.messages ?? []).map((m) => m.key.id).sort();
	ok(!!od && JSON.stringify(got) === JSON.stringify(want) &&
		od.messages.every((m) => text(m) === cmsgs.find((x) => x.id === m.key.id).text),
		'fetchMessageHistory(10) gets an ON_DEMAND set with exactly the 10 messages before the oldest held, exact texts',
		{ want, got, sets: carol.sets.slice(-2), log: sim.log().split('\n').filter((l) => /on-demand/.test(l)).slice(-4) });
	const odAfter = await hstatus();
	ok(odAfter.on_demand_answered === odBefore + 1 && od?.peerDataRequestSessionId,
		'the sim counts the request answered; the set names the request as its session',
		{ before: odBefore, after: odAfter.on_demand_answered, session: od?.peerDataRequestSessionId });

	// 4. Faults: a corrupt blob (bad MAC) and a withdrawn one (404).
	const nBefore = alice.msgs.size;
	const f1 = await sim.ctl('POST', '/admin/history/fault', { pn: ALICE, kind: 'corrupt' });
	const f2 = await sim.ctl('POST', '/admin/history/fault', { pn: ALICE, kind: 'gone' });
	ok(f1.status === 200 && f2.status === 200 && f1.body.sent.length === 1 && f2.body.sent[0].gone === true,
		'history/fault sends a corrupt and a withdrawn blob to the companion', { f1: f1.body, f2: f2.body });
	const fs1 = await until(60000, async () => {
		const all = await blobs();
		const c = all.find((b) => b.kind === 'corrupt');
		const g = all.find((b) => b.kind === 'gone');
		const s = await hstatus();
		return c?.downloads === 1 && s.not_found >= 2 + 1 ? { c, g, s } : null;
	});
	ok(!!fs1 && fs1.g.downloads === 0, 'Baileys fetched the corrupt blob and got 404 for the withdrawn one',
		fs1 ?? (await blobs()).filter((b) => b.kind !== 'chunk'));
	// The bomb and the deep nesting too; each blob checked here with
	// node:crypto and node:zlib from the keys the sim shows.
	const f3 = await sim.ctl('POST', '/admin/history/fault', { pn: ALICE, kind: 'bomb' });
	const f4 = await sim.ctl('POST', '/admin/history/fault', { pn: ALICE, kind: 'nest' });
	ok(f3.status === 200 && f4.status === 200, 'history/fault sends a zlib bomb and a 10,000-deep nesting', { f3: f3.body, f4: f4.body });
	const fb = await until(60000, async () => {
		const all = await blobs();
		const b = all.find((x) => x.kind === 'bomb');
		const n = all.find((x) => x.kind === 'nest');
		return b?.downloads === 1 && n?.downloads === 1 ? { b, n, c: all.find((x) => x.kind === 'corrupt') } : null;
	});
	ok(!!fb, 'Baileys downloaded both', { blobs: (await blobs()).filter((b) => b.kind !== 'chunk').map((b) => [b.kind, b.downloads]),
		failed: redirects.errors });
	const open_ = async (b) => {
		const r = await realFetch(`https://${mediaHost}${b.path}`);
		const body = Buffer.from(await r.arrayBuffer());
		const k = Buffer.from(crypto.hkdfSync('sha256', Buffer.from(b.media_key, 'hex'), Buffer.alloc(32), 'WhatsApp History Keys', 112));
		const enc = body.subarray(0, body.length - 10);
		const mac = crypto.createHmac('sha256', k.subarray(48, 80)).update(k.subarray(0, 16)).update(enc).digest().subarray(0, 10);
		const macOk = mac.equals(body.subarray(body.length - 10));
		let plain = null;
		if (macOk) {
			const d = crypto.createDecipheriv('aes-256-cbc', k.subarray(16, 48), k.subarray(0, 16));
			plain = Buffer.concat([d.update(enc), d.final()]);
		}
		return { body, macOk, plain, encHashOk: crypto.createHash('sha256').update(body).digest('hex') === b.enc_sha256 };
	};
	if (fb) {
		const zlib = await import('node:zlib');
		const c = await open_(fb.c);
		ok(c.encHashOk && !c.macOk, 'the corrupt blob: its SHA-256 is the notification\'s, its MAC fails', { encHashOk: c.encHashOk, macOk: c.macOk });
		const b = await open_(fb.b);
		let capped = false;
		try { zlib.inflateSync(b.plain, { maxOutputLength: 64 << 20 }); } catch (e) { capped = e.code === 'ERR_BUFFER_TOO_LARGE'; }
		const inflated = b.plain ? zlib.inflateSync(b.plain) : Buffer.alloc(0);
		ok(b.macOk && b.body.length < 256 << 10 && capped && inflated.length > 64 << 20 && inflated.every((x) => x === 0),
			`the bomb: ${b.body.length} bytes on the wire, valid MAC, inflates to ${inflated.length} zero bytes (over 64 MiB)`,
			{ wire: b.body.length, capped, inflated: inflated.length });
		const n = await open_(fb.n);
		// Walk the raw protobuf: HistorySync.conversations(2) >
		// Conversation.messages(2) > HistorySyncMsg.message(1) >
		// WebMessageInfo.message(2), then count the Message levels:
		// extendedTextMessage(6) > contextInfo(17) > quotedMessage(3).
		const field = (buf, want) => {
			let i = 0;
			const varint = () => { let v = 0, m = 1; for (;;) { const x = buf[i++]; v += (x & 0x7f) * m; m *= 128; if (x < 0x80) return v; } };
			while (i < buf.length) {
				const tag = varint();
				const wt = tag & 7;
				if (wt === 0) varint();
				else if (wt === 1) i += 8;
				else if (wt === 5) i += 4;
				else if (wt === 2) { const len = varint(); if (tag >>> 3 === want) return buf.subarray(i, i + len); i += len; }
				else return null;
			}
			return null;
		};
		let m = n.plain ? zlib.inflateSync(n.plain) : null;
		for (const f of [2, 2, 1, 2])
			m = m && field(m, f);
		let depth = 0;
		while (m) {
			const ext = field(m, 6);
			m = ext && field(ext, 17);
			m = m && field(m, 3);
			if (m)
				depth++;
		}
		ok(n.macOk && depth === 10000, `the nesting blob holds a Message quoting quotes ${depth} deep`, { depth });
	}
	await sleep(300);
	ok(alice.msgs.size === nBefore && ![...alice.msgs.keys()].some((id) => id.startsWith('3EB0FA')),
		'nothing from the four faulty blobs was imported, and Baileys and the sim carry on', { before: nBefore, after: alice.msgs.size });

	// 5. 50,000 messages in 500 chats: made, sent, all delivered (how fast
	// is make bench's to say, not a test's on a loaded machine).
	const big5 = await sim.ctl('POST', '/admin/history', { pn: BOB, chats: 500, messages: 50000, seed: 7 });
	ok(big5.status === 200 && big5.body.chats === 500 && big5.body.messages === 50000 && big5.body.groups === 100,
		`500 chats and 50,000 messages made (in ${Math.round(big5.body.generate_ms ?? -1)} ms; make bench measures speed)`, big5.body);
	const bob = await client('bob', BOB);
	const pb = await pair(bob);
	ok(pb.scan.status === 200 && pb.open, 'Baileys pairs as bob:1', pb);
	const sentLine = await until(60000, () => sim.log().match(/history of 15550000002 to device 1: (\d+) notifications, (\d+) messages in (\d+) ms/));
	ok(!!sentLine && Number(sentLine[2]) === 50000,
		`the phone built, encrypted, stored and sent 50,000 messages in ${sentLine?.[3]} ms (${sentLine?.[1]} notifications)`,
		sentLine?.[0]);
	const all5 = await until(60000, () => bob.msgs.size >= 50000);
	ok(!!all5 && bob.chats.size === 500, 'Baileys received all 50,000 messages in 500 chats',
		{ msgs: bob.msgs.size, chats: bob.chats.size });
	const rc5 = await until(60000, async () => {
		const s = await hstatus();
		return s.hist_sync_receipts >= s.chunks_sent ? s : null;
	});
	ok(!!rc5, 'and receipted every notification', await hstatus());
	const h5 = await hist(BOB);
	const spot = [h5.chat_list[0], h5.chat_list[2], h5.chat_list[499]];
	let spotBad = [];
	for (const x of spot) {
		const cm = await chat(BOB, x.jid);
		for (const m of [cm.messages[0], cm.messages.at(-1)])
			if (text(bob.msgs.get(m.id) ?? {}) !== m.text)
				spotBad.push({ chat: x.jid, id: m.id, sim: m.text, baileys: text(bob.msgs.get(m.id) ?? {}) });
	}
	ok(spotBad.length === 0, 'spot checks: the oldest and newest message of three chats match exactly', spotBad);
} catch (e) {
	ok(false, `the scenario runs to the end: ${e.message}`, { stack: e.stack, cause: String(e.cause?.stack ?? e.cause ?? '') });
} finally {
	for (const c of clients) {
		try { c.sock?.end(undefined); } catch { /* closed */ }
	}
	const code = await sim.stop();
	ok(code === 0, 'wachat-sim exits cleanly', { code, stderr: sim.stderr().slice(-2000) });
	ok(!/Sanitizer|runtime error:/.test(sim.stderr()), 'no sanitizer report', sim.stderr().slice(-3000));
	process.exit(finish());
}
