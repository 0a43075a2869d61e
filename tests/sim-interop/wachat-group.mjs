// SPDX-License-Identifier: GPL-3.0-or-later
// Groups between wachat's engine (tests/wa-eng-driver --messaging, no UI,
// a real store) and two unmodified Baileys clients, through wachat-sim
// (protocol.md 10, 11.7; interop.md 6): a group Baileys creates appears
// in wachat and the reverse; messages from each of the three reach the
// other two; wachat's first send carries the SKDM to every device, the
// second none; the ticks wait for every member (read by one of two stays
// delivered); a member removed reads nothing sent while removed and
// reads again once added back (a new sender key); a restart keeps every
// group and its sender-key state.  TAP.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bail, engineDriver, finish, importPkg, ok, quietLogger, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--group-addressing', process.env.GROUP_MODE ?? 'lid']);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const ME = '15550000001';	// wachat's account
const BOB = '15550000002';	// Baileys
const CAROL = '15550000003';	// Baileys
const meJid = `${ME}@s.whatsapp.net`;
const store = path.join(sim.tmp, 'wachat');

function wachat() {
	return engineDriver(sim.url, store, path.join(sim.tmp, 'qr'));
}

// A Baileys user, linked by the sim's mock phone.
function person(pn, name) {
	const u = { pn, name, jid: `${pn}@s.whatsapp.net`, dir: path.join(sim.tmp, `auth-${name}`), ev: [], sent: new Map() };
	u.connect = () => {
		u.sock = makeWASocket({
			waWebSocketUrl: sim.url, auth: u.state, logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000, defaultQueryTimeoutMs: 5000,
			markOnlineOnConnect: true, syncFullHistory: false, shouldSyncHistoryMessage: () => false,
			getMessage: (key) => until(3000, () => u.sent.get(key.id)),
		});
		const sock = u.sock;
		sock.ev.on('creds.update', u.saveCreds);
		for (const e of ['connection.update', 'messages.upsert', 'groups.upsert', 'group-participants.update'])
			sock.ev.on(e, (d) => { if (u.sock === sock) u.ev.push({ e, d }); });
	};
	u.wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const x = u.ev.find(pred);
			if (x)
				return x;
			await sleep(20);
		}
	})(), `${name}: ${what}`);
	u.link = async () => {
		({ state: u.state, saveCreds: u.saveCreds } = await baileys.useMultiFileAuthState(u.dir));
		u.connect();
		const { d } = await u.wait(60000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
		await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${pn}`, d.qr);
		await u.wait(60000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
		u.state.creds.me.name = name;
		u.ev = [];
		u.connect();
		return (await u.wait(60000, 'open', (x) => x.e === 'connection.update' &&
			(x.d.connection === 'open' || x.d.connection === 'close'))).d.connection === 'open';
	};
	u.send = async (to, t) => {
		const s = await u.sock.sendMessage(to, { text: t });
		u.sent.set(s.key.id, s.message);
		return s.key.id;
	};
	u.got = (ms, id) => u.wait(ms, `message ${id}`, (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.key.id === id && text(m) !== undefined))
		.then((x) => text(x.d.messages.find((m) => m.key.id === id)), () => null);
	return u;
}
const text = (m) => m?.message?.conversation ?? m?.message?.extendedTextMessage?.text;
const routes = async () => (await sim.ctl('GET', '/admin/messages')).body;
const idOf = (line) => line.split(' ')[2];
// How many of a group's phones decrypted message id (waiting up to 30 s
// for all of them).
async function delivery(g, id) {
	const get = async () => (await sim.ctl('GET', `/admin/groups/${g}/delivery?id=${id}`)).body;
	return (await until(60000, async () => { const d = await get(); return d.decrypted >= d.phones - 1 ? d : null; })) ?? await get();
}

let isOf = () => false;
const bob = person(BOB, 'bob');
const carol = person(CAROL, 'carol');
let w;
try {
	for (const [pn, name] of [[ME, 'me'], [BOB, 'bob'], [CAROL, 'carol']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	const accts = (await sim.ctl('GET', '/admin/accounts')).body;
	const lidOf = new Map(accts.map((a) => [a.pn, a.lid]));
	// a routed stanza's addressee is a device of pn (by PN or by LID)
	isOf = (pn, to) => to.startsWith(`${pn}@`) || to.startsWith(`${pn}:`) ||
		to.startsWith(`${lidOf.get(pn)}@`) || to.startsWith(`${lidOf.get(pn)}:`);
	w = wachat();
	await until(60000, () => fs.existsSync(w.qr));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(w.qr, 'utf8').trim());
	await w.wait(60000, 'connected', /^connected /);
	ok(scan.status === 200, 'wachat links by QR and logs in');
	ok(await bob.link() && await carol.link(), 'two Baileys clients (bob, carol) link and log in');
	await w.wait(60000, 'prekeys uploaded', /^prekeys-uploaded /);

	// 1. bob creates a group with wachat and carol: wachat learns it.
	const g1 = await bob.sock.groupCreate('Hikers ⛰', [meJid, carol.jid]);
	const gl = await w.wait(60000, 'the group', new RegExp(`^dm-group ${g1.id} .*subject=Hikers ⛰`)).catch(() => null);
	ok(gl && /members=.*,.*,/.test(gl), "a group Baileys creates appears in wachat with its subject and three members", { gl, g1 });
	ok(await w.wait(60000, 'the event line', new RegExp(`^dm-message ${g1.id} \\S+ from_me=0 state=received notice=1 .*created the group`))
		.then(() => true, () => false), 'wachat stores "… created the group" as an event line');

	// 2. bob writes: wachat and carol read it.
	const b1 = await bob.send(g1.id, 'first one up the hill');
	const wl = await w.wait(60000, "bob's group text", new RegExp(`^dm-message ${g1.id} ${b1} from_me=0`)).catch(() => null);
	ok(wl?.endsWith(': first one up the hill'), "wachat decrypts bob's group message (his SKDM, then his skmsg)", { wl, tail: w.lines.slice(-8) });
	ok(await carol.got(60000, b1) === 'first one up the hill', "carol decrypts bob's group message");

	// 3. wachat writes: both read it; the first send carries the SKDM
	// to every other device, the second one to none.
	w.cmd(`send ${g1.id} wachat here 🙂`);
	const q1 = idOf(await w.wait(60000, 'queued', new RegExp(`^dm-message ${g1.id} \\S+ from_me=1 state=queued`)));
	ok(await bob.got(60000, q1) === 'wachat here 🙂' && await carol.got(60000, q1) === 'wachat here 🙂',
		"bob and carol decrypt wachat's first group message", w.lines.slice(-10));
	await w.wait(60000, 'sent', new RegExp(`^dm-state ${g1.id} ${q1} sent$`));
	let r = (await routes()).filter((x) => x.id === q1 && x.kind === 'message');
	ok(r.length > 0 && r.filter((x) => isOf(BOB, x.to) || isOf(CAROL, x.to)).length >= 4 && r.filter((x) => isOf(BOB, x.to) || isOf(CAROL, x.to)).every((x) => x.enc.includes('skmsg') &&
		(x.enc.includes('pkmsg') || x.enc.includes('msg'))), "wachat's first group message carries an SKDM copy to each of their devices", r);
	w.cmd(`send ${g1.id} and again`);
	const q2 = idOf(await w.wait(60000, 'queued 2', new RegExp(`^dm-message ${g1.id} \\S+ from_me=1 state=queued .*: and again$`)));
	ok(await bob.got(60000, q2) === 'and again' && await carol.got(60000, q2) === 'and again', 'both decrypt the second one');
	r = (await routes()).filter((x) => x.id === q2 && x.kind === 'message');
	ok(r.length > 0 && r.every((x) => x.enc.length === 1 && x.enc[0] === 'skmsg'), 'the second one is a skmsg alone: no SKDM', r);

	// 4. carol writes: wachat and bob read it.
	const c1 = await carol.send(g1.id, 'carol too');
	ok((await w.wait(60000, "carol's text", new RegExp(`^dm-message ${g1.id} ${c1} from_me=0`)).catch(() => ''))?.endsWith(': carol too'),
		"wachat decrypts carol's group message");
	ok(await bob.got(60000, c1) === 'carol too', "bob decrypts carol's group message");

	// 4b. "@NUMBER" of a member goes as a mention (mentionedJid).
	w.cmd(`send ${g1.id} see you there @${BOB}`);
	const qm = idOf(await w.wait(60000, 'queued m', new RegExp(`^dm-message ${g1.id} \\S+ from_me=1 state=queued .*: see you there @${BOB}$`)));
	const gm = await bob.wait(60000, 'the mention', (x) => x.e === 'messages.upsert' && x.d.messages.some((m) => m.key.id === qm)).catch(() => null);
	const mj = gm?.d.messages.find((m) => m.key.id === qm)?.message?.extendedTextMessage?.contextInfo?.mentionedJid ?? [];
	ok(mj.length === 1 && isOf(BOB, mj[0]), "a member's @number goes as a mention that Baileys reads", { mj });

	// 4c. The ticks follow every member: delivered once every member's
	// devices have it, read only when every member read it; bob's read
	// receipt alone leaves it delivered.
	ok(await w.wait(60000, 'delivered 1', new RegExp(`^dm-state ${g1.id} ${q1} delivered$`)).then(() => true, () => false),
		"wachat's first group message turns delivered once bob's and carol's devices have it");
	let from = w.lines.length;
	w.cmd(`send ${g1.id} ticks wait for everyone`);
	const qt = idOf(await w.wait(60000, 'queued t', new RegExp(`^dm-message ${g1.id} \\S+ from_me=1 state=queued .*: ticks wait for everyone$`)));
	ok(await bob.got(60000, qt) === 'ticks wait for everyone' && await carol.got(60000, qt) === 'ticks wait for everyone' &&
		await w.wait(60000, 'delivered t', new RegExp(`^dm-state ${g1.id} ${qt} delivered$`), from).then(() => true, () => false),
		'a second one: both have it, delivered', w.lines.slice(from));
	const keyOf = (u) => u.ev.filter((x) => x.e === 'messages.upsert').flatMap((x) => x.d.messages).filter((m) => m.key.id === qt).map((m) => m.key).slice(0, 1);
	// a read receipt from a device of pn for qt, routed to wachat's device
	// and acked there
	const readBy = async (pn) => (await routes()).some((x) => x.kind === 'receipt' && x.id === qt && x.type === 'read' &&
		isOf(ME, x.to) && x.acked && isOf(pn, x.from));
	await bob.sock.readMessages(keyOf(bob));
	const bobRead = await until(60000, () => readBy(BOB));
	await sleep(300);
	const half = w.lines.slice(from).filter((l) => l.startsWith(`dm-state ${g1.id} ${qt} `)).pop();
	ok(bobRead && half?.endsWith(' delivered'), "bob's read receipt reaches wachat and the message stays delivered (carol has not read it)",
		{ bobRead, half });
	await carol.sock.readMessages(keyOf(carol));
	ok(await w.wait(60000, 'read t', new RegExp(`^dm-state ${g1.id} ${qt} read$`), from).then(() => true, () => false),
		'read by carol too, it turns read', w.lines.slice(from));

	// 5. wachat creates a group with bob and carol: Baileys sees it.
	from = w.lines.length;
	w.cmd(`group-create Cooking ${bob.jid} ${carol.jid}`);
	const cl = await w.wait(60000, 'the created group', /^dm-group \S+@g\.us .*subject=Cooking/, from).catch(() => null);
	const g2 = cl?.split(' ')[1];
	ok(g2 && /members=.*,.*,/.test(cl), 'wachat creates a group with two members', cl);
	const up = await bob.wait(60000, 'the new group', (x) => x.e === 'groups.upsert' && x.d.some((g) => g.id === g2)).catch(() => null);
	const meta = up ? up.d.find((g) => g.id === g2) : await bob.sock.groupMetadata(g2).catch(() => null);
	ok(meta?.subject === 'Cooking', 'a group wachat creates appears in Baileys with its subject', meta);
	w.cmd(`send ${g2} recipes tonight`);
	const q3 = idOf(await w.wait(60000, 'queued 3', new RegExp(`^dm-message ${g2} \\S+ from_me=1 state=queued`)));
	ok(await bob.got(60000, q3) === 'recipes tonight' && await carol.got(60000, q3) === 'recipes tonight',
		"both read wachat's message in wachat's group");

	// 6. carol removed: she gets nothing of what follows; added back, she
	// reads again (wachat's sender key was replaced).
	from = w.lines.length;
	w.cmd(`group-remove ${g2} ${carol.jid}`);
	const rl = await w.wait(60000, 'carol removed', new RegExp(`^dm-message ${g2} \\S+ from_me=0 state=received notice=1 .*removed`), from).catch(() => null);
	ok(rl, 'the removal comes back as an event line', w.lines.slice(from));
	await w.wait(60000, 'the group without carol', new RegExp(`^dm-group ${g2} .*members=(?!.*${CAROL})`), from).catch(() => null);
	w.cmd(`send ${g2} secret plans`);
	const q4 = idOf(await w.wait(60000, 'queued 4', new RegExp(`^dm-message ${g2} \\S+ from_me=1 state=queued .*: secret plans$`)));
	ok(await bob.got(60000, q4) === 'secret plans', 'bob reads what wachat sends while carol is out');
	await sleep(1000);
	r = (await routes()).filter((x) => x.id === q4);
	ok(await carol.got(100, q4) === null && !r.some((x) => isOf(CAROL, x.to)), 'carol gets nothing sent while she was removed', r);
	ok(r.filter((x) => x.kind === 'message' && isOf(BOB, x.to)).length >= 2 &&
		r.filter((x) => x.kind === 'message' && isOf(BOB, x.to)).every((x) => x.enc.length === 2),
		"wachat's sender key was replaced at the removal: bob got the new one with that message", r);
	from = w.lines.length;
	w.cmd(`group-add ${g2} ${carol.jid}`);
	await w.wait(60000, 'carol back', new RegExp(`^dm-group ${g2} .*members=.*`), from);
	await sleep(500);
	w.cmd(`send ${g2} welcome back`);
	const q5 = idOf(await w.wait(60000, 'queued 5', new RegExp(`^dm-message ${g2} \\S+ from_me=1 state=queued .*: welcome back$`)));
	ok(await carol.got(60000, q5) === 'welcome back' && await bob.got(60000, q5) === 'welcome back',
		'added back, carol reads the next message (and bob too)');
	r = (await routes()).filter((x) => x.id === q5 && x.kind === 'message');
	ok(r.filter((x) => isOf(CAROL, x.to)).length >= 2 && r.filter((x) => isOf(CAROL, x.to)).every((x) => x.enc.length === 2) &&
		r.filter((x) => isOf(BOB, x.to)).length >= 2 && r.filter((x) => isOf(BOB, x.to)).every((x) => x.enc.length === 1),
		'carol got the current sender key with it, bob (who holds it) did not', r);

	// 7. A restart keeps the groups and the sender-key state.
	ok(await w.quit() === 0, 'wachat stops cleanly');
	w = wachat();
	await w.wait(60000, 'connected again', /^connected /);
	ok(await w.wait(60000, 'groups again', new RegExp(`^dm-group ${g1.id} .*subject=Hikers`)).then(() => true, () => false),
		'after a restart wachat still has its groups');
	w.cmd(`send ${g1.id} still here`);
	const q6 = idOf(await w.wait(60000, 'queued 6', new RegExp(`^dm-message ${g1.id} \\S+ from_me=1 state=queued .*: still here$`)));
	ok(await bob.got(60000, q6) === 'still here' && await carol.got(60000, q6) === 'still here', 'both read what it sends after the restart');
	r = (await routes()).filter((x) => x.id === q6 && x.kind === 'message');
	ok(r.length > 0 && r.every((x) => x.enc.length === 1), 'with the same sender key: no SKDM after the restart', r);
	const b2 = await bob.send(g1.id, 'welcome back to you');
	ok((await w.wait(60000, "bob's text after restart", new RegExp(`^dm-message ${g1.id} ${b2} from_me=0`)).catch(() => ''))?.endsWith(': welcome back to you'),
		"wachat still reads bob's sender key after the restart");

	// 8. A group of 256 simulated members: wachat's first message
	// reaches all of them (an SKDM to each), the second costs no SKDM.
	from = w.lines.length;
	const big = await sim.ctl('POST', '/admin/groups', { subject: 'Big 256', members: [ME, 'sim:256'] });
	ok(big.status === 200 && big.body.size === 257, 'the sim makes a group of wachat and 256 simulated members', big.body.size);
	const gb = big.body.jid;
	ok(await w.wait(60000, 'the big group', new RegExp(`^dm-group ${gb} .*subject=Big 256`), from).then(() => true, () => false),
		'wachat learns the big group from its notification');
	w.cmd(`send ${gb} hello all 256`);
	const q7 = idOf(await w.wait(60000, 'queued 7', new RegExp(`^dm-message ${gb} \\S+ from_me=1 state=queued .*: hello all 256$`)));
	await w.wait(60000, 'sent 7', new RegExp(`^dm-state ${gb} ${q7} sent$`));
	const d7 = await delivery(gb, q7);
	ok(d7.phones === 257 && d7.decrypted === 257 && d7.texts['hello all 256'] === 257 && d7.missing.length === 0,
		"all 256 simulated members (and wachat's own phone) decrypt wachat's first message", d7);
	w.cmd(`send ${gb} and the second`);
	const q8 = idOf(await w.wait(60000, 'queued 8', new RegExp(`^dm-message ${gb} \\S+ from_me=1 state=queued .*: and the second$`)));
	await w.wait(60000, 'sent 8', new RegExp(`^dm-state ${gb} ${q8} sent$`));
	const d8 = await delivery(gb, q8);
	r = (await routes()).filter((x) => x.id === q8 && x.kind === 'message');
	ok(d8.decrypted === 257 && d8.missing.length === 0 && r.length >= 257 && r.every((x) => x.enc.length === 1 && x.enc[0] === 'skmsg'),
		'the second reaches all 256 with no SKDM: one skmsg each', { d8, sample: r.slice(0, 3), n: r.length });

	// 9. Retries in a group (10.5).  A member's phone is reinstalled: it
	// cannot read wachat's next message, asks again, and wachat sends it
	// the text with its sender key pairwise on a fresh session.
	from = w.lines.length;
	const small = await sim.ctl('POST', '/admin/groups', { subject: 'Retry', members: [ME, 'sim:2'] });
	const gs = small.body.jid;
	const [m1, m2] = small.body.created_contacts;
	await w.wait(60000, 'the small group', new RegExp(`^dm-group ${gs} `), from);
	w.cmd(`send ${gs} first of all`);
	const q9 = idOf(await w.wait(60000, 'queued 9', new RegExp(`^dm-message ${gs} \\S+ from_me=1 state=queued .*: first of all$`)));
	await delivery(gs, q9);
	await sim.ctl('POST', '/admin/mock-phone/reinstall', { pn: m1 });
	w.cmd(`send ${gs} after your reinstall`);
	const q10 = idOf(await w.wait(60000, 'queued 10', new RegExp(`^dm-message ${gs} \\S+ from_me=1 state=queued .*: after your reinstall$`)));
	const inbox = async (pn, id) => (await sim.ctl('GET', `/admin/mock-phone/group-inbox?pn=${pn}&group=${gs}`)).body.inbox.find((x) => x.id === id);
	const got10 = await until(60000, () => inbox(m1, q10));
	r = (await routes()).filter((x) => x.id === q10 && x.kind === 'receipt' && x.type === 'retry');
	ok(got10?.text === 'after your reinstall' && got10.enc !== 'skmsg' && r.length >= 1,
		"a reinstalled member's phone asks again and reads wachat's message sent pairwise with the sender key", { got10, r });
	// 10. wachat loses a member's sender key: it asks again, the member's
	// phone resends, wachat stores the message.
	let first = await sim.ctl('POST', '/admin/mock-phone/group-send', { from_pn: m2, group: gs, text: 'hello from m2' });
	await w.wait(60000, "the member's first text", new RegExp(`^dm-message ${gs} ${first.body.id} from_me=0`));
	// The phone counts wachat as holding its key once it sent it an SKDM
	// copy; a send that skipped wachat's device (no keys at that moment)
	// would send the key again with the next one, and no retry would be
	// needed: send until a copy went.
	const toWachat = (x) => isOf(ME, x.jid) && /:[1-9][0-9]*@/.test(x.jid);	// not our phone (device 0)
	for (let k = 0; k < 3 && !(first.body.skdm ?? []).some(toWachat); k++) {
		first = await sim.ctl('POST', '/admin/mock-phone/group-send', { from_pn: m2, group: gs, text: `hello again ${k}` });
		await w.wait(60000, "the member's next text", new RegExp(`^dm-message ${gs} ${first.body.id} from_me=0`));
	}
	// Nothing to wachat's device left unacked at the sim: a resend that
	// answered an earlier retry receipt (pkmsg, with the SKDM) would come
	// again at the next login and bring the key back.
	await until(60000, async () => (await routes()).every((x) => x.kind !== 'message' || !toWachat({ jid: x.to }) || x.acked));
	ok(await w.quit() === 0, 'wachat stops to lose a member\'s sender key');
	const db = path.join(store, 'wachat.db');
	const del = spawn('sqlite3', [db, `DELETE FROM sender_key WHERE group_id = '${gs}' AND (name LIKE '${small.body.participants.find((x) => x.pn === m2)?.lid}%' OR name LIKE '${m2}%')`]);
	ok(await new Promise((resolve) => del.on('exit', resolve)) === 0, "the member's sender key is deleted from wachat's database");
	w = wachat();
	await w.wait(60000, 'connected again', /^connected /);
	const sent = await sim.ctl('POST', '/admin/mock-phone/group-send', { from_pn: m2, group: gs, text: 'can you read me?' });
	const l11 = await w.wait(60000, "the member's resent text", new RegExp(`^dm-message ${gs} ${sent.body.id} from_me=0`)).catch(() => null);
	r = (await routes()).filter((x) => x.id === sent.body.id && x.kind === 'receipt' && x.type === 'retry');
	ok(l11?.endsWith(': can you read me?') && r.length >= 1,
		"wachat, without the sender's key, sends a retry receipt and stores the message the phone sends again",
		{ l11, r, skdm: sent.body.skdm, tail: w.lines.slice(-6) });

	const st = (await sim.ctl('GET', '/admin/status')).body;
	ok(st.unanswered_queries === 0, 'the sim answered every query', sim.log().split('\n').filter((l) => /unanswered/.test(l)).slice(0, 10).join('\n'));
	ok(await w.quit() === 0 && !/Sanitizer|runtime error/.test(w.err), 'wachat stops cleanly, no sanitizer report', w.err.slice(-2000));
} catch (e) {
	ok(false, `no exception: ${e.stack}`, w && w.lines.slice(-20).join('\n'));
	if (w)
		await w.quit();
}
for (const u of [bob, carol]) {
	try {
		u.sock?.end(undefined);
	} catch { /* closed */ }
}
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(bob.dir);
await rmTree(carol.dir);
process.exit(finish());
