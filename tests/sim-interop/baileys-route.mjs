// SPDX-License-Identifier: GPL-3.0-or-later
// 1:1 messaging through wachat-sim between unmodified Baileys clients
// (protocol.md 8.1, 8.2, 9.4, 9.6, 11.1, 11.6, 11.7, 15; interop.md 5):
// alice (two companions) and bob (one), each paired by the sim's mock
// phone.  Texts both ways (usync, prekey bundles by LID, pkmsg then msg:
// the receiver decrypting proves the bundles and the routing), the copy
// for alice's other companion (recipient=, deviceSentMessage), delivery
// and read receipts at the sender, a chat state, presence, the devices
// notification when a companion is linked, and a message sent while bob
// is away arriving at his next login exactly once.  TAP.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { bail, finish, simBin, importPkg, ok, quietLogger, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(process.env.SIM_VERBOSE ? ['-v'] : []);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const ALICE = '15550000001';
const BOB = '15550000002';
const aliceJid = `${ALICE}@s.whatsapp.net`;
const bobJid = `${BOB}@s.whatsapp.net`;
const clients = [];

// A Baileys client; its events collected in c.ev (every event, in order).
async function client(name, pn) {
	const dir = path.join(sim.tmp, `auth-${name}`);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const c = { name, pn, dir, state, saveCreds, ev: [] };
	c.connect = () => {
		c.sock = makeWASocket({
			waWebSocketUrl: sim.url,
			auth: c.state,
			logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'),
			connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 5000,
			markOnlineOnConnect: true,
			syncFullHistory: false,
			shouldSyncHistoryMessage: () => false,
			fireInitQueries: true,
		});
		const sock = c.sock;
		sock.ev.on('creds.update', c.saveCreds);
		for (const e of ['connection.update', 'messages.upsert', 'messages.update', 'presence.update'])
			sock.ev.on(e, (d) => { if (c.sock === sock) c.ev.push({ e, d, at: Date.now() }); });
	};
	c.wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const x = c.ev.find(pred);
			if (x)
				return x;
			await sleep(20);
		}
	})(), `${name}: ${what}`);
	c.upserts = () => c.ev.filter((x) => x.e === 'messages.upsert').flatMap((x) => x.d.messages.map((m) => ({ m, type: x.d.type })));
	clients.push(c);
	return c;
}

const text = (m) => m.message?.conversation ?? m.message?.extendedTextMessage?.text ??
	m.message?.deviceSentMessage?.message?.conversation;

// Pair c through the mock phone of account pn, then log in (515 restart).
async function pair(c) {
	c.connect();
	const { d } = await c.wait(60000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${c.pn}`, d.qr);
	await c.wait(60000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	// The sim sends no push name in pair-success (interop.md P9): give
	// Baileys one so that it sends presence.
	c.state.creds.me.name = c.name;
	c.ev = [];
	c.connect();
	const open = await c.wait(60000, 'open', (x) => x.e === 'connection.update' &&
		(x.d.connection === 'open' || x.d.connection === 'close'));
	return { scan, open: open.d.connection === 'open', me: c.state.creds.me };
}

async function reconnect(c) {
	c.connect();
	const open = await c.wait(60000, 'open again', (x) => x.e === 'connection.update' &&
		(x.d.connection === 'open' || x.d.connection === 'close'));
	return open.d.connection === 'open';
}

// End c's socket and wait until the sim has no live connection of it.
async function away(c, dev) {
	c.sock.end(undefined);
	return until(60000, async () => !(await sim.ctl('GET', '/admin/connections')).body
		.some((x) => x.jid === `${c.pn}:${dev}@s.whatsapp.net`));
}

const routes = async () => (await sim.ctl('GET', '/admin/messages')).body;
const status = async () => (await sim.ctl('GET', '/admin/status')).body;

try {
	const t0 = Date.now();
	for (const [pn, name] of [[ALICE, 'alice'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	const alice = await client('alice', ALICE);
	const bob = await client('bob', BOB);
	const alice2 = await client('alice2', ALICE);
	const pa = await pair(alice);
	ok(pa.scan.status === 200 && pa.open, 'alice pairs (device 1) and logs in', pa);
	const pb = await pair(bob);
	ok(pb.scan.status === 200 && pb.open, 'bob pairs (device 1) and logs in', pb);
	// Bob's pairing: alice's connection gets <notification type="devices">
	// and acks it.
	const notif = await until(60000, () => /notification sim-\d+ acked \(devices\)/.test(sim.log()));
	const st0 = await status();
	ok(notif && st0.device_notifications >= 1, 'linking bob:1 sends alice the devices notification, which she acks',
		{ notifications: st0.device_notifications });
	const pa2 = await pair(alice2);
	ok(pa2.scan.status === 200 && pa2.open && pa2.me.id.startsWith(`${ALICE}:2@`), "alice's second companion (device 2) pairs and logs in", pa2);

	// usync lists every device of an account, with its LID.
	const us = await alice.sock.executeUSyncQuery(new baileys.USyncQuery().withContext('message')
		.withDeviceProtocol().withLIDProtocol().withUser(new baileys.USyncUser().withId(aliceJid))
		.withUser(new baileys.USyncUser().withId(bobJid)));
	const accts = (await sim.ctl('GET', '/admin/accounts')).body;
	const lidOf = (pn) => accts.find((a) => a.pn === pn).lid;
	const devsOf = (jid) => us?.list.find((u) => u.id === jid)?.devices?.deviceList?.map((d) => d.id).sort();
	ok(JSON.stringify(devsOf(aliceJid)) === '[0,1,2]' && JSON.stringify(devsOf(bobJid)) === '[0,1]' &&
		us.list.find((u) => u.id === bobJid)?.lid === `${lidOf(BOB)}@lid`,
		'usync lists the phone and every companion, with the LID', us?.list);

	// 1. alice -> bob: usync, bundles (bob:0, bob:1, alice:0, alice:2), pkmsg.
	const bobBefore = (await sim.ctl('GET', `/admin/devices/${BOB}:1@s.whatsapp.net`)).body;
	const sent1 = await alice.sock.sendMessage(bobJid, { text: 'hello bob' });
	const got1 = await bob.wait(60000, 'the first text', (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === sent1.key.id));
	const m1 = got1.d.messages.find((m) => m.key.id === sent1.key.id);
	ok(text(m1) === 'hello bob' && !m1.key.fromMe && m1.pushName === 'alice' && got1.d.type === 'notify',
		'bob decrypts alice\'s first text (pkmsg), with her push name', { key: m1.key, text: text(m1), pushName: m1.pushName });
	const bobAfter = (await sim.ctl('GET', `/admin/devices/${BOB}:1@s.whatsapp.net`)).body;
	ok(bobAfter.prekeys.used === bobBefore.prekeys.used + 1 && bobAfter.bundles_served >= 1 &&
		bobAfter.prekeys.count === bobBefore.prekeys.count - 1,
		"bob:1's bundle came with one of his one-time prekeys, which the sim then no longer holds",
		{ before: bobBefore.prekeys, after: bobAfter.prekeys });
	const bobAcct = (await sim.ctl('GET', `/admin/devices/${BOB}@s.whatsapp.net`)).body;
	ok(bobAcct.phone_bundles >= 1 && bobAcct.phone_prekeys_left === bobAcct.prekeys - bobAcct.phone_bundles,
		"bob's phone (device 0) bundle is the phone's own keys, a one-time prekey handed out once per bundle", bobAcct);
	const copy = await alice2.wait(60000, "the copy for alice's other companion", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === sent1.key.id));
	const c1 = copy.d.messages.find((m) => m.key.id === sent1.key.id);
	ok(c1.key.fromMe && c1.key.remoteJid === bobJid && text(c1) === 'hello bob',
		"alice:2 gets her own message (recipient=bob, deviceSentMessage) as sent by her, in the chat with bob",
		{ key: c1.key, text: text(c1) });
	let r = (await routes()).filter((x) => x.id === sent1.key.id && x.kind === 'message');
	const to = (jid) => r.find((x) => x.to === jid);
	ok(to(`${BOB}:1@s.whatsapp.net`)?.enc[0] === 'pkmsg' && to(`${BOB}@s.whatsapp.net`)?.enc[0] === 'pkmsg' &&
		to(`${ALICE}:2@s.whatsapp.net`) && to(`${ALICE}@s.whatsapp.net`) && !to(`${ALICE}:1@s.whatsapp.net`) &&
		r.every((x) => x.from === `${ALICE}:1@s.whatsapp.net`),
		'the sim routed one pkmsg to each device named: bob:0, bob:1, alice:0, alice:2 (not the sender)', r);
	const acked1 = await until(60000, async () => {
		const x = (await routes()).find((y) => y.id === sent1.key.id && y.to === `${BOB}:1@s.whatsapp.net`);
		return x?.acked ? x : null;
	});
	ok(acked1 && acked1.delivered && acked1.deliveries === 1, "bob:1's receipt acks the message it took", acked1);

	// 2. Receipts at the sender: delivery, then read.
	const upd = (c, id, status) => c.wait(60000, `status ${status} of ${id}`, (x) => x.e === 'messages.update' &&
		x.d.some((u) => u.key.id === id && u.update.status >= status));
	const delivered = await upd(alice, sent1.key.id, 3).then(() => true, () => false);
	ok(delivered, 'alice sees the delivery receipt (status DELIVERY_ACK)');
	await bob.sock.readMessages([m1.key]);
	const read = await upd(alice, sent1.key.id, 4).then(() => true, () => false);
	ok(read, 'alice sees the read receipt (status READ) after bob reads it');
	r = (await routes()).filter((x) => x.id === sent1.key.id && x.kind === 'receipt');
	ok(r.some((x) => x.type === 'read' && x.to === `${ALICE}:1@s.whatsapp.net` && x.from.startsWith(`${BOB}:1@`) && x.acked),
		"the read receipt was relayed to alice's devices from bob:1 and acked by alice", r);

	// 3. bob -> alice: a reply.
	const sent2 = await bob.sock.sendMessage(aliceJid, { text: 'hi alice' });
	const got2 = await alice.wait(60000, 'the reply', (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === sent2.key.id));
	ok(text(got2.d.messages.find((m) => m.key.id === sent2.key.id)) === 'hi alice', 'alice decrypts bob\'s reply');
	const sent3 = await alice.sock.sendMessage(bobJid, { text: 'second' });
	const got3 = await bob.wait(60000, 'the second text', (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === sent3.key.id));
	r = (await routes()).filter((x) => x.id === sent3.key.id && x.to === `${BOB}:1@s.whatsapp.net`);
	ok(text(got3.d.messages.find((m) => m.key.id === sent3.key.id)) === 'second' && r[0]?.enc[0] === 'msg',
		'a later message is a msg (session established) and decrypts', r);

	// The phone of bob reads it (sim_route_inject, the phone seam).
	const pr = await sim.ctl('POST', '/admin/mock-phone/receipt', { pn: BOB, to: aliceJid, id: sent3.key.id, type: 'read' });
	const read3 = await upd(alice, sent3.key.id, 4).then(() => true, () => false);
	r = (await routes()).filter((x) => x.id === sent3.key.id && x.kind === 'receipt' && x.type === 'read');
	ok(pr.status === 200 && read3 && r.some((x) => x.from === bobJid && x.to === `${ALICE}:1@s.whatsapp.net` && x.acked),
		"a read receipt from bob's phone (device 0, no connection) reaches alice: status READ", { pr: pr.body, r });

	// 4. Chat state and presence.
	await bob.sock.presenceSubscribe(aliceJid);
	await alice.sock.sendPresenceUpdate('composing', bobJid);
	const typing = await bob.wait(60000, 'composing', (x) => x.e === 'presence.update' &&
		Object.values(x.d.presences).some((p) => p.lastKnownPresence === 'composing')).catch(() => null);
	ok(typing && typing.d.id.startsWith(ALICE), 'bob sees alice composing (chatstate relayed with from)', typing?.d);
	await alice.sock.sendPresenceUpdate('unavailable');
	const unav = await bob.wait(60000, 'alice unavailable', (x) => x.e === 'presence.update' &&
		Object.values(x.d.presences).some((p) => p.lastKnownPresence === 'unavailable' && p.lastSeen > 0)).catch(() => null);
	ok(unav && unav.d.id.startsWith(ALICE), 'bob, subscribed, sees alice go unavailable with last seen', unav?.d);

	// 5. Offline: bob away, alice sends, bob logs in again.
	ok(await away(bob, 1), 'bob disconnects');
	const sent4 = await alice.sock.sendMessage(bobJid, { text: 'while you were away' });
	// ... and reads bob's reply: the read receipt waits for bob too.
	await alice.sock.readMessages([got2.d.messages.find((m) => m.key.id === sent2.key.id).key]);
	await sleep(300);
	r = (await routes()).filter((x) => x.id === sent4.key.id && x.to === `${BOB}:1@s.whatsapp.net`);
	ok(r.length === 1 && !r[0].delivered && !r[0].acked, 'the sim queues the message for bob:1 (not delivered)', r);
	bob.ev = [];
	const t1 = Date.now();
	ok(await reconnect(bob), 'bob logs in again');
	const got4 = await bob.wait(60000, 'the queued text', (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === sent4.key.id)).catch(() => null);
	const m4 = got4?.d.messages.find((m) => m.key.id === sent4.key.id);
	ok(text(m4) === 'while you were away' && got4.d.type === 'append',
		`bob gets the queued text at login (offline, upserted as append) in ${Date.now() - t1} ms`, got4?.d);
	const acked4 = await until(60000, async () => {
		const x = (await routes()).find((y) => y.id === sent4.key.id && y.to === `${BOB}:1@s.whatsapp.net`);
		return x?.acked ? x : null;
	});
	ok(acked4 && acked4.deliveries === 1 && acked4.offline_deliveries === 1,
		'delivered once, at the login, with offline="1", and acked by bob', acked4);
	const read2 = await upd(bob, sent2.key.id, 4).then(() => true, () => false);
	const rr2 = (await routes()).find((y) => y.id === sent2.key.id && y.kind === 'receipt' && y.type === 'read' &&
		y.to === `${BOB}:1@s.whatsapp.net`);
	ok(read2 && rr2?.offline_deliveries === 1 && rr2.acked && /offline queue: 2 stanzas sent/.test(sim.log()),
		"alice's read receipt, queued too, reaches bob at the same login (offline count 2): his reply shows READ", rr2);
	// Bob's receipt is "inactive" when Baileys handles the backlog before
	// it sends its presence (interop.md 5), which Baileys shows as no
	// status: check the relay in the sim instead.
	const rc4 = await until(60000, async () => (await routes()).find((y) => y.id === sent4.key.id &&
		y.kind === 'receipt' && y.to === `${ALICE}:1@s.whatsapp.net` && y.from === `${BOB}:1@s.whatsapp.net` &&
		y.delivered && y.acked));
	ok(rc4, `alice gets bob's receipt for it (${rc4?.type || 'delivery'}) and acks it`, rc4);
	// Once more away and back: an acked message is not sent again.
	ok(await away(bob, 1), 'bob disconnects again');
	bob.ev = [];
	ok(await reconnect(bob), 'bob logs in a third time');
	await sleep(1000);
	const again = bob.upserts().filter(({ m }) => m.key.id === sent4.key.id);
	const again4 = (await routes()).find((y) => y.id === sent4.key.id && y.to === `${BOB}:1@s.whatsapp.net`);
	ok(again.length === 0 && again4.deliveries === 1, 'an acked message is not delivered again (exactly once)',
		{ again: again.length, route: again4 });

	// 6. Bundles asked directly (8.1): PN and LID device JIDs, an unknown
	// device, and a phone's one-time prekeys each handed out once.
	const carol = await sim.ctl('POST', '/admin/contacts', { pn: '15550000009', name: 'carol', of: ALICE });
	const bob1 = (await sim.ctl('GET', `/admin/devices/${BOB}:1@s.whatsapp.net`)).body;
	const bundles = async (jids) => {
		const res = await alice.sock.query({
			tag: 'iq', attrs: { xmlns: 'encrypt', type: 'get', to: '@s.whatsapp.net' },
			content: [{ tag: 'key', attrs: {}, content: jids.map((jid) => ({ tag: 'user', attrs: { jid } })) }],
		});
		return baileys.getBinaryNodeChildren(baileys.getBinaryNodeChild(res, 'list'), 'user');
	};
	const be = (b) => b ? [...b].reduce((v, x) => v * 256 + x, 0) : undefined;
	const child = (u, ...tags) => tags.reduce((n, t) => n && baileys.getBinaryNodeChild(n, t), u)?.content;
	const got = await bundles([`${BOB}:1@s.whatsapp.net`, `${lidOf(BOB)}:1@lid`, `${BOB}:7@s.whatsapp.net`]);
	const bob1after = (await sim.ctl('GET', `/admin/devices/${BOB}:1@s.whatsapp.net`)).body;
	ok(got.length === 3 && be(child(got[0], 'registration')) === bob1.registration_id &&
		Buffer.from(child(got[0], 'identity')).toString('hex') === bob1.identity_pub &&
		be(child(got[0], 'skey', 'id')) === bob1.signed_prekey_id &&
		Buffer.from(child(got[1], 'skey', 'signature')).toString('hex') === bob1.signed_prekey_sig &&
		be(child(got[0], 'key', 'id')) === bob1.prekeys.first_id && be(child(got[1], 'key', 'id')) === bob1.prekeys.first_id + 1 &&
		bob1after.prekeys.first_id === bob1.prekeys.first_id + 2 && child(got[0], 'device-identity')?.length > 0 &&
		baileys.getBinaryNodeChild(got[2], 'error')?.attrs.code === '404',
		"bob:1's bundle by PN and by LID: his registration, identity, signed prekey, the next one-time prekey each; device 7 is 404",
		{ bob1: bob1.prekeys, after: bob1after.prekeys, got: got.map((u) => u.attrs) });
	const cj = `${carol.body.lid}@lid`;
	const ph = await bundles(Array.from({ length: carol.body.prekeys + 1 }, () => cj));
	const ids = ph.map((u) => be(child(u, 'key', 'id')));
	ok(carol.status === 200 && ph.length === carol.body.prekeys + 1 && new Set(ids.slice(0, -1)).size === carol.body.prekeys &&
		ids.slice(0, -1).every((x) => x > 0) && ids[ids.length - 1] === undefined &&
		Buffer.from(child(ph[0], 'identity')).toString('hex') === carol.body.identity_pub,
		`a contact's phone: ${carol.body.prekeys} bundles with distinct one-time prekeys, then one without <key>`, ids);

	// 7. Unlinking alice:2: her connection dropped, bob told, usync updated.
	const devAcks = () => (sim.log().match(/acked \(devices\)/g) ?? []).length;
	const before = devAcks();
	const rm = await sim.ctl('POST', `/admin/devices/${ALICE}:2@s.whatsapp.net/remove`, {});
	const closed = await alice2.wait(60000, 'closed', (x) => x.e === 'connection.update' && x.d.connection === 'close')
		.then(() => true, () => false);
	const told = await until(60000, () => devAcks() >= before + 2);
	const us2 = await bob.sock.executeUSyncQuery(new baileys.USyncQuery().withContext('message')
		.withDeviceProtocol().withUser(new baileys.USyncUser().withId(aliceJid)));
	ok(rm.status === 200 && rm.body.notified === 2 && closed && told &&
		JSON.stringify(us2?.list[0]?.devices?.deviceList?.map((d) => d.id).sort()) === '[0,1]',
		'unlinking alice:2 drops her connection, bob and alice:1 ack the devices notification (remove), usync lists 0 and 1',
		{ rm: rm.body, closed, told, list: us2?.list });

	// The same list through `wachat-sim ctl messages`.
	const viaCtl = JSON.parse(execFileSync(simBin, ['ctl', '--admin', sim.admin, 'messages'], { encoding: 'utf8' }));
	const viaHttp = await routes();
	ok(viaCtl.length === viaHttp.length && viaCtl.length > 0 &&
		viaCtl.every((x) => ['seq', 'kind', 'id', 'from', 'to', 'enc', 'delivered', 'acked'].every((k) => k in x)),
		`ctl messages lists the ${viaCtl.length} routed stanzas (id, from, to device, enc types, delivered, acked)`);

	const st = await status();
	ok(st.unanswered_queries === 0 && !/unhandled stanza/.test(sim.log()),
		'no query unanswered, no stanza unhandled',
		sim.log().split('\n').filter((l) => /unanswered|unhandled/.test(l)).slice(0, 20).join('\n'));
	console.log(`# the scenario took ${Date.now() - t0} ms`);
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
for (const c of clients) {
	try {
		c.sock?.end(undefined);
	} catch { /* already closed */ }
}
if (process.env.SIM_DUMP_LOG)
	process.stderr.write(sim.log());
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
for (const c of clients)
	await rmTree(c.dir);
process.exit(finish());
