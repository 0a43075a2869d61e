// SPDX-License-Identifier: GPL-3.0-or-later
// Group chats with sender keys through wachat-sim between unmodified
// Baileys clients and simulated phones (protocol.md 10, 11.1, 11.7;
// interop.md 6): alice and bob (one companion each, paired by the mock
// phone) and carol (a simulated contact).  Alice creates a group (LID-
// addressed, or PN with GROUP_MODE=pn: the sim's --group-addressing) with
// bob and carol (w:g2 create, w:gp2 create notification), bob finds it;
// texts from alice, bob and carol's phone reach every other member
// (SKDM pairwise, then skmsg); bob removed gets nothing, added back reads
// again; a group of 256 simulated phones and alice: her one text is
// decrypted by every phone.  Exact texts asserted.  TAP.
import crypto from 'node:crypto';
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

// The addressing mode of the groups (--group-addressing): lid or pn.
const MODE = process.env.GROUP_MODE ?? 'lid';
const SRV = MODE === 'lid' ? 'lid' : 's.whatsapp.net';
let sim;
try {
	sim = await startSim(['--group-addressing', MODE, ...(process.env.SIM_VERBOSE ? ['-v'] : [])]);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const ALICE = '15550000001';
const BOB = '15550000002';
const CAROL = '15550000003';
const jidOf = (pn) => `${pn}@s.whatsapp.net`;
const clients = [];

// A Baileys client; its events collected in c.ev (every event, in order).
async function client(name, pn) {
	const dir = path.join(sim.tmp, `auth-${name}`);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const c = { name, pn, dir, state, saveCreds, ev: [], sent: new Map() };
	c.connect = () => {
		c.sock = makeWASocket({
			waWebSocketUrl: sim.url,
			auth: c.state,
			logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'),
			connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 10000,
			markOnlineOnConnect: true,
			syncFullHistory: false,
			shouldSyncHistoryMessage: () => false,
			fireInitQueries: true,
			// For retry receipts: what this client sent.
			getMessage: async (key) => c.sent.get(key.id),
		});
		const sock = c.sock;
		sock.ev.on('creds.update', c.saveCreds);
		for (const e of ['connection.update', 'messages.upsert', 'groups.upsert', 'groups.update', 'group-participants.update',
			'message-receipt.update'])
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
	c.send = async (jid, content) => {
		const m = await c.sock.sendMessage(jid, content);
		c.sent.set(m.key.id, m.message);
		return m;
	};
	// The group message id from the group gid, or null after ms.
	c.groupMsg = (ms, gid, id) => c.wait(ms, `message ${id}`, (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === id && m.key.remoteJid === gid))
		.then((x) => x.d.messages.find((m) => m.key.id === id), () => null);
	clients.push(c);
	return c;
}

const text = (m) => m?.message?.conversation ?? m?.message?.extendedTextMessage?.text;

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

const routes = async () => (await sim.ctl('GET', '/admin/messages')).body;
const ginbox = async (pn, gid) => (await sim.ctl('GET', `/admin/mock-phone/group-inbox?pn=${pn}&group=${gid}`)).body.inbox;

try {
	const t0 = Date.now();
	for (const [pn, name] of [[ALICE, 'alice'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	const carolC = await sim.ctl('POST', '/admin/contacts', { pn: CAROL, name: 'carol' });
	const accts = (await sim.ctl('GET', '/admin/accounts')).body;
	const lidOf = (pn) => accts.find((a) => a.pn === pn).lid;
	// JIDs in the group's namespace: LID in a LID group, else PN.
	const uid = (pn) => MODE === 'lid' ? lidOf(pn) : pn;
	const dj = (pn, dev) => `${uid(pn)}${dev ? `:${dev}` : ''}@${SRV}`;
	const uj = (pn) => dj(pn, 0);
	const alice = await client('alice', ALICE);
	const bob = await client('bob', BOB);
	const pa = await pair(alice);
	const pb = await pair(bob);
	ok(carolC.status === 200 && pa.scan.status === 200 && pa.open && pb.scan.status === 200 && pb.open,
		'alice and bob pair (device 1) and log in; carol is a simulated contact', { pa, pb });

	// 1. Create (w:g2 create; the create notification for bob).
	const meta = await alice.sock.groupCreate('proto group', [jidOf(BOB), jidOf(CAROL)]);
	const gid = meta.id;
	const ids = meta.participants.map((p) => `${p.id}|${p.phoneNumber ?? p.lid}|${p.admin}`).sort();
	const want = [[ALICE, 'superadmin'], [BOB, null], [CAROL, null]]
		.map(([pn, t]) => `${uj(pn)}|${MODE === 'lid' ? jidOf(pn) : `${lidOf(pn)}@lid`}|${t}`).sort();
	ok(/^\d+@g\.us$/.test(gid) && meta.subject === 'proto group' && meta.addressingMode === MODE &&
		JSON.stringify(ids) === JSON.stringify(want) && meta.owner === `${uj(ALICE)}` && meta.size === 3,
		`groupCreate answers the new ${MODE} group: subject, creator, 3 participants (jid ${MODE === 'lid' ?
			'LID, phone_number PN' : 'PN, lid LID'}, alice superadmin)`,
		{ meta, want });
	const up = await bob.wait(60000, 'groups.upsert', (x) => x.e === 'groups.upsert' && x.d.some((g) => g.id === gid))
		.then((x) => x.d.find((g) => g.id === gid), () => null);
	ok(up && up.subject === 'proto group' && up.participants.length === 3 && up.author === `${uj(ALICE)}`,
		'bob gets the w:gp2 create notification (groups.upsert: subject, 3 participants, author alice)', up);
	const all = await bob.sock.groupFetchAllParticipating();
	ok(all[gid]?.subject === 'proto group' && all[gid].participants.length === 3 && Object.keys(all).length === 1,
		'bob\'s groupFetchAllParticipating lists the group', all);
	const st0 = await sim.ctl('GET', `/admin/groups/${gid}`);
	ok(st0.status === 200 && st0.body.size === 3 && st0.body.addressing_mode === MODE && st0.body.creator === ALICE,
		'the sim\'s group-info agrees', st0.body);

	// 2. alice -> group: bob and carol's phone decrypt.
	const s1 = await alice.sock.sendMessage(gid, { text: 'hello group' });
	const b1 = await bob.groupMsg(60000, gid, s1.key.id);
	ok(text(b1) === 'hello group' && b1.key.participant?.startsWith(uid(ALICE)) && !b1.key.fromMe,
		'bob decrypts alice\'s first group text (SKDM pairwise, then skmsg)', b1 && { key: b1.key, text: text(b1) });
	const c1 = await until(60000, async () => (await ginbox(CAROL, gid)).find((m) => m.id === s1.key.id));
	ok(c1?.text === 'hello group' && c1.from === `${dj(ALICE, 1)}` && c1.enc === 'skmsg',
		`carol's phone reads it too (from alice:1, ${MODE === 'lid' ? 'by LID' : 'by PN'})`, c1);
	let r = (await routes()).filter((x) => x.id === s1.key.id && x.kind === 'message');
	const rTo = (jid) => r.find((x) => x.to === jid);
	ok(r.length === 4 && rTo(`${dj(BOB, 1)}`)?.enc.join() === 'pkmsg,skmsg' &&
		rTo(`${uj(CAROL)}`)?.enc.join() === 'pkmsg,skmsg' && rTo(`${uj(BOB)}`) &&
		rTo(`${uj(ALICE)}`) && !rTo(`${dj(ALICE, 1)}`),
		'the sim fans it out to every member device but the sender (bob:0, bob:1, carol, alice:0), SKDM + skmsg', r);
	const rcpt = await alice.wait(60000, 'a group receipt', (x) => x.e === 'message-receipt.update' &&
		x.d.some((u) => u.key.id === s1.key.id)).then(() => true, () => false);
	ok(rcpt, 'alice gets the receipts for it (relayed with participant=)');

	// 3. A second text: skmsg only.
	const s2 = await alice.sock.sendMessage(gid, { text: 'second one' });
	const b2 = await bob.groupMsg(60000, gid, s2.key.id);
	r = (await routes()).filter((x) => x.id === s2.key.id && x.to === `${dj(BOB, 1)}`);
	ok(text(b2) === 'second one' && r[0]?.enc.join() === 'skmsg', 'alice\'s second text goes as skmsg alone and decrypts', r);

	// 4. bob -> group.
	const s3 = await bob.sock.sendMessage(gid, { text: 'hi from bob' });
	const a3 = await alice.groupMsg(60000, gid, s3.key.id);
	const c3 = await until(60000, async () => (await ginbox(CAROL, gid)).find((m) => m.id === s3.key.id));
	ok(text(a3) === 'hi from bob' && c3?.text === 'hi from bob', 'bob\'s reply: alice and carol\'s phone decrypt it',
		{ a: text(a3), c: c3 });

	// 5. carol's phone -> group.
	const ps = await sim.ctl('POST', '/admin/mock-phone/group-send', { from_pn: CAROL, group: gid, text: 'hi from carol' });
	const a4 = await alice.groupMsg(60000, gid, ps.body.id);
	const b4 = await bob.groupMsg(60000, gid, ps.body.id);
	ok(ps.status === 200 && text(a4) === 'hi from carol' && text(b4) === 'hi from carol' &&
		a4.key.participant?.startsWith(uid(CAROL)),
		'carol\'s phone sends to the group (its SKDM pairwise to 4 devices): alice and bob decrypt it',
		{ ps: ps.body, a: text(a4), b: text(b4) });
	const rc5 = await until(60000, async () => {
		const x = (await routes()).filter((y) => y.id === ps.body.id && y.kind === 'receipt' && y.to === uj(CAROL));
		return x.some((y) => y.from === dj(ALICE, 1)) && x.some((y) => y.from === dj(BOB, 1)) ? x : null;
	});
	ok(rc5, 'the receipts of alice:1 and bob:1 for it reach carol\'s phone (participant without a device: every device of carol)',
		(await routes()).filter((y) => y.id === ps.body.id && y.kind === 'receipt'));
	const psJids = (ps.body.skdm ?? []).map((d) => d.jid).sort();
	ok(JSON.stringify(psJids) === JSON.stringify([`${dj(ALICE, 1)}`, `${uj(ALICE)}`,
		`${dj(BOB, 1)}`, `${uj(BOB)}`].sort()), 'carol\'s SKDM went to alice:0, alice:1, bob:0, bob:1', psJids);

	// 5b. carol's phone reinstalled (no sessions, no sender keys): alice's
	// next skmsg fails there, the retry receipt reaches alice:1 (10.5),
	// Baileys resends with its SKDM, carol reads it.
	const fg = await sim.ctl('POST', '/admin/mock-phone/forget-sessions', { pn: CAROL });
	const s4 = await alice.send(gid, { text: 'after the reinstall' });
	let c4, retryR;
	await until(60000, async () => {
		c4 = (await ginbox(CAROL, gid)).find((m) => m.id === s4.key.id);
		r = (await routes()).filter((x) => x.id === s4.key.id);
		retryR = r.find((x) => x.kind === 'receipt' && x.type === 'retry' && x.to === `${dj(ALICE, 1)}`);
		return c4 && retryR?.acked;
	});
	ok(fg.status === 200 && c4?.text === 'after the reinstall' && retryR?.from === `${uj(CAROL)}` &&
		retryR.acked && r.filter((x) => x.kind === 'message' && x.to === `${uj(CAROL)}`).length >= 2,
		'carol, reinstalled, cannot read the skmsg: her retry receipt goes to alice:1, whose resend (SKDM) she reads',
		{ c4, r });

	// 6. Remove bob: the notification, and he gets nothing more.
	const rm = await alice.sock.groupParticipantsUpdate(gid, [jidOf(BOB)], 'remove');
	const gone = await bob.wait(60000, 'removed', (x) => x.e === 'group-participants.update' && x.d.id === gid &&
		x.d.action === 'remove').then((x) => x.d, () => null);
	ok(rm.length === 1 && rm[0].status === '200' && gone?.participants.some((p) => (p.id ?? p).startsWith(uid(BOB))),
		'alice removes bob (200); bob gets the w:gp2 remove notification', { rm, gone });
	const s5 = await alice.sock.sendMessage(gid, { text: 'bob is gone' });
	const c5 = await until(60000, async () => (await ginbox(CAROL, gid)).find((m) => m.id === s5.key.id));
	const b5 = await bob.groupMsg(1500, gid, s5.key.id);
	r = (await routes()).filter((x) => x.id === s5.key.id && x.to.startsWith(uid(BOB)));
	ok(c5?.text === 'bob is gone' && b5 === null && r.length === 0,
		'alice\'s next text reaches carol, not bob (nothing routed to his devices)', { c5, r });
	const nm = await bob.sock.sendMessage(gid, { text: 'let me in' }).then(() => 'sent', (e) => e.message);
	// Baileys stops at the metadata query (403); a group <message> sent
	// anyway gets ack error 403 and goes nowhere.
	const raw = await bob.sock.query({ tag: 'message', attrs: { id: 'SIMNOTMEMBER1', to: gid, type: 'text' },
		content: [{ tag: 'enc', attrs: { v: '2', type: 'skmsg' }, content: Buffer.from([0x33, 1, 2, 3]) }] })
		.then((x) => x, (e) => ({ attrs: { thrown: e.message } }));
	const rNm = (await routes()).filter((x) => x.id === 'SIMNOTMEMBER1');
	ok(nm === 'forbidden' && raw.tag === 'ack' && raw.attrs.error === '403' && rNm.length === 0,
		'bob, no longer a member: the metadata query is refused (403), a group message gets ack error 403, nothing routed',
		{ nm, raw: raw.attrs, rNm });

	// 7. Add bob back: he reads alice's next text.
	const add = await alice.sock.groupParticipantsUpdate(gid, [jidOf(BOB)], 'add');
	const back = await bob.wait(60000, 'added', (x) => x.e === 'group-participants.update' && x.d.id === gid &&
		x.d.action === 'add').then((x) => x.d, () => null);
	ok(add[0]?.status === '200' && back, 'alice adds bob back; he gets the add notification', { add, back });
	const s6 = await alice.sock.sendMessage(gid, { text: 'welcome back' });
	const b6 = await bob.groupMsg(60000, gid, s6.key.id);
	r = (await routes()).filter((x) => x.id === s6.key.id && x.to === `${dj(BOB, 1)}`);
	ok(text(b6) === 'welcome back', 'bob decrypts alice\'s text after being added back', { r, b6: text(b6) });
	// Baileys 7.0.0-rc14 does not rotate its sender key when a member is
	// removed (only a retry clears its sender-key memory): bob reads the
	// new text with the key he had, and no new SKDM is sent to him.
	ok(r[0]?.enc.join() === 'skmsg',
		'Baileys keeps its sender key over the removal: bob gets only the skmsg (no rotation, no new SKDM)', r);

	// 7b. The subject, by alice: bob is told.
	await alice.sock.groupUpdateSubject(gid, 'renamed group');
	const ren = await bob.wait(60000, 'groups.update', (x) => x.e === 'groups.update' &&
		x.d.some((g) => g.id === gid && g.subject === 'renamed group')).then(() => true, () => false);
	const gi = (await sim.ctl('GET', `/admin/groups/${gid}`)).body;
	ok(ren && gi.subject === 'renamed group' && gi.s_o === ALICE,
		'alice renames the group (w:g2 subject); bob gets the w:gp2 subject notification', gi.subject);

	// 7c. phash (10.3): a group of bob alone; his message with a wrong
	// phash is acked with the group's, a right one without.
	const solo = await sim.ctl('POST', '/admin/groups', { subject: 'solo', creator: BOB, members: [] });
	const ph = (devs) => '2:' + crypto.createHash('sha256').update(devs.sort().join('')).digest().subarray(0, 6)
		.toString('base64').replace(/=+$/, '');
	const want2 = ph([`${uid(BOB)}.0:0@${SRV}`, `${uid(BOB)}.0:1@${SRV}`]);
	const rawMsg = (id, phash) => bob.sock.query({ tag: 'message', attrs: { id, to: solo.body.jid, type: 'text', phash },
		content: [{ tag: 'enc', attrs: { v: '2', type: 'skmsg' }, content: Buffer.from([0x33, 1, 2, 3]) }] })
		.then((x) => x.attrs, (e) => ({ thrown: e.message }));
	const bad = await rawMsg('SIMPHASH1', '2:AAAAAAAA');
	const good = await rawMsg('SIMPHASH2', want2);
	ok(solo.status === 200 && bad.phash === want2 && !bad.error && good.phash === undefined && !good.error,
		'a group message with a wrong phash is acked with the group\'s (whatsmeow then drops its cache), a right one without',
		{ bad, good, want2 });

	// 7d. bob leaves (w:g2 leave): alice sees him go.
	const tl = Date.now();
	await bob.sock.groupLeave(gid);
	const left = await alice.wait(60000, 'bob left', (x) => x.e === 'group-participants.update' && x.d.id === gid &&
		x.d.action === 'remove' && x.d.participants.some((p) => (p.id ?? p).startsWith(uid(BOB))) &&
		x.at >= tl).then((x) => x.d, () => null);
	const gl = (await sim.ctl('GET', `/admin/groups/${gid}`)).body;
	ok(left && gl.size === 2 && !gl.participants.some((p) => p.pn === BOB),
		'bob leaves the group; alice gets the notification (a remove by bob himself), 2 members left', { left, size: gl.size });

	// 8. A group of 256 simulated phones and alice.
	const big = await sim.ctl('POST', '/admin/groups', { subject: 'big', creator: ALICE, members: ['sim:256'] });
	ok(big.status === 200 && big.body.size === 257 && big.body.created_contacts.length === 256,
		'group-create with sim:256 makes 256 simulated contacts and a group of 257', big.status);
	const bup = await alice.wait(60000, 'groups.upsert (big)', (x) => x.e === 'groups.upsert' &&
		x.d.some((g) => g.id === big.body.jid)).then(() => true, () => false);
	ok(bup, 'alice gets the create notification for it');
	const tb = Date.now();
	const s7 = await alice.sock.sendMessage(big.body.jid, { text: 'hello 256' });
	const del = await until(60000, async () => {
		const d = (await sim.ctl('GET', `/admin/groups/${big.body.id}/delivery?id=${s7.key.id}`)).body;
		return d.decrypted === 257 ? d : null;
	});
	const dl = del ?? (await sim.ctl('GET', `/admin/groups/${big.body.id}/delivery?id=${s7.key.id}`)).body;
	ok(del && del.texts['hello 256'] === 257 && del.missing.length === 0,
		`alice's text reaches all 256 simulated phones (and her own) in ${Date.now() - tb} ms`,
		{ decrypted: dl.decrypted, texts: dl.texts, missing: dl.missing?.slice(0, 10) });

	const st = (await sim.ctl('GET', '/admin/status')).body;
	ok(st.unanswered_queries === 0, 'no query unanswered',
		sim.log().split('\n').filter((l) => /unanswered/.test(l)).slice(0, 20).join('\n'));
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
