// SPDX-License-Identifier: GPL-3.0-or-later
// 1:1 messaging between wachat's engine (tests/wa-eng-driver --messaging,
// no UI, a real store) and unmodified Baileys, through wachat-sim
// (protocol.md 8, 9, 11, 15; interop.md 5, 7).  Texts both ways (pkmsg
// first, then msg), a reply and a reaction both ways, delivery and read
// receipts both ways, typing both ways, a message sent while the other
// side is offline delivered at its next login (both directions), and the
// outbox: a message queued while wachat is offline goes out once it
// connects, exactly once.  TAP.
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
	sim = await startSim();
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const ME = '15550000001';	// wachat's account
const BOB = '15550000002';	// Baileys
const meJid = `${ME}@s.whatsapp.net`;
const bobJid = `${BOB}@s.whatsapp.net`;
const store = path.join(sim.tmp, 'wachat');

// wachat's engine: a driver process; its output lines in w.lines.
function wachat(extra = []) {
	return engineDriver(sim.url, store, path.join(sim.tmp, 'qr'), extra, 120000);
}

// Baileys' log lines about retries, shown when a retry check fails.
const bobLines = [];
const bobLog = {
	level: 'debug',
	child() { return bobLog; },
	trace() {}, debug(o, m) { bobLog.keep(o, m); }, info(o, m) { bobLog.keep(o, m); },
	warn(o, m) { bobLog.keep(o, m); }, error(o, m) { bobLog.keep(o, m); }, fatal() {},
	keep(o, m) {
		const line = `${m ?? ''} ${typeof o === 'string' ? o : JSON.stringify(o, (k, v) => typeof v === 'bigint' ? String(v) : v)}`;
		if (/retry|again|session/i.test(line))
			bobLines.push(line.slice(0, 300));
	},
};

// Baileys: bob, paired by the sim's mock phone; what he sent, for his
// answers to retry receipts (getMessage).
const bob = { dir: path.join(sim.tmp, 'auth-bob'), ev: [], sent: new Map() };
async function bobConnect() {
	bob.sock = makeWASocket({
		waWebSocketUrl: sim.url, auth: bob.state, logger: bobLog,
		browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000, defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: true, syncFullHistory: false, shouldSyncHistoryMessage: () => false,
		// the retry receipt may come before sendMessage() has returned
		getMessage: (key) => until(3000, () => bob.sent.get(key.id)),
	});
	const sock = bob.sock;
	sock.ev.on('creds.update', bob.saveCreds);
	for (const e of ['connection.update', 'messages.upsert', 'messages.update', 'presence.update', 'messages.reaction'])
		sock.ev.on(e, (d) => { if (bob.sock === sock) bob.ev.push({ e, d }); });
}
const bobWait = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const x = bob.ev.find(pred);
		if (x)
			return x;
		await sleep(20);
	}
})(), `bob: ${what}`);
const bobOpen = () => bobWait(20000, 'open', (x) => x.e === 'connection.update' &&
	(x.d.connection === 'open' || x.d.connection === 'close'));
const upserted = (id) => (x) => x.e === 'messages.upsert' && x.d.messages.some((m) => m.key.id === id);
const msgOf = (x, id) => x.d.messages.find((m) => m.key.id === id);
const text = (m) => m?.message?.conversation ?? m?.message?.extendedTextMessage?.text;
const routes = async () => (await sim.ctl('GET', '/admin/messages')).body;
const idOf = (line) => line.split(' ')[2];

let w;
try {
	for (const [pn, name] of [[ME, 'me'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	// Link wachat (QR scanned by the phone) and bob.
	w = wachat();
	await until(60000, () => fs.existsSync(w.qr));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(w.qr, 'utf8').trim());
	await w.wait(60000, 'connected', /^connected /);
	ok(scan.status === 200, 'wachat links by QR and logs in');
	({ state: bob.state, saveCreds: bob.saveCreds } = await baileys.useMultiFileAuthState(bob.dir));
	await bobConnect();
	const { d } = await bobWait(15000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${BOB}`, d.qr);
	await bobWait(15000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	bob.state.creds.me.name = 'bob';
	bob.ev = [];
	await bobConnect();
	ok((await bobOpen()).d.connection === 'open', 'Baileys (bob) links and logs in');
	await w.wait(60000, 'prekeys uploaded', /^prekeys-uploaded /);

	// 1. wachat -> bob, the first one a pkmsg.
	w.cmd(`send ${bobJid} hello bob 👋`);
	const q1 = idOf(await w.wait(60000, 'queued', /^dm-message .* from_me=1 state=queued/));
	const g1 = await bobWait(15000, 'the first text', upserted(q1)).catch(() => null);
	const m1 = g1 && msgOf(g1, q1);
	ok(text(m1) === 'hello bob 👋' && m1.pushName === 'me', "Baileys decrypts wachat's first text, with wachat's push name",
		{ m1: m1 && { key: m1.key, text: text(m1), push: m1.pushName }, lines: w.lines.slice(-10) });
	let r = (await routes()).filter((x) => x.id === q1 && x.kind === 'message');
	ok(r.some((x) => x.to === `${BOB}:1@s.whatsapp.net` && x.enc[0] === 'pkmsg') && r.some((x) => x.to === `${BOB}@s.whatsapp.net`) &&
		r.some((x) => x.to === meJid) && !r.some((x) => x.to === `${ME}:1@s.whatsapp.net`),
		"one pkmsg to each of bob's devices and to wachat's own phone (deviceSentMessage), none to itself", r);
	ok(await w.wait(60000, 'sent', new RegExp(`^dm-state ${bobJid} ${q1} sent$`)).then(() => true, () => false),
		"the server's ack moves it to sent");
	ok(await w.wait(60000, 'delivered', new RegExp(`^dm-state ${bobJid} ${q1} delivered$`)).then(() => true, () => false),
		"bob's delivery receipt moves it to delivered");
	await bob.sock.readMessages([m1.key]);
	ok(await w.wait(60000, 'read', new RegExp(`^dm-state ${bobJid} ${q1} read$`)).then(() => true, () => false),
		"bob's read receipt moves it to read");

	// 2. bob -> wachat.
	const s2 = await bob.sock.sendMessage(meJid, { text: 'hi wachat ✨' });
	const l2 = await w.wait(60000, "bob's text", new RegExp(`^dm-message ${bobJid} ${s2.key.id} from_me=0`)).catch(() => null);
	ok(l2 && l2.endsWith(': hi wachat ✨'), "wachat decrypts bob's text (pkmsg) and stores it", { l2, tail: w.lines.slice(-8) });
	const upd = (id, status) => bobWait(10000, `status ${status} of ${id}`, (x) => x.e === 'messages.update' &&
		x.d.some((u) => u.key.id === id && u.update.status >= status)).then(() => true, () => false);
	ok(await upd(s2.key.id, 3), "bob sees wachat's delivery receipt");
	w.cmd(`read ${bobJid}`);
	await w.wait(60000, 'read 1', /^read 1$/);
	ok(await upd(s2.key.id, 4), "bob sees wachat's read receipt once wachat marks the chat read");

	// 3. A second text is a msg.
	w.cmd(`send ${bobJid} second`);
	const q3 = idOf(await w.wait(60000, 'queued 2', /^dm-message .* from_me=1 state=queued notice=0 note=- quoted=-: second$/));
	const g3 = await bobWait(10000, 'second', upserted(q3)).catch(() => null);
	r = (await routes()).filter((x) => x.id === q3 && x.to === `${BOB}:1@s.whatsapp.net`);
	ok(text(g3 && msgOf(g3, q3)) === 'second' && r[0]?.enc[0] === 'msg', 'a later text is a msg and decrypts', r);

	// 4. Replies both ways.
	const s4 = await bob.sock.sendMessage(meJid, { text: 'replying' }, { quoted: msgOf(g3, q3) });
	const l4 = await w.wait(60000, "bob's reply", new RegExp(`^dm-message ${bobJid} ${s4.key.id} `)).catch(() => null);
	ok(l4 && l4.includes(`quoted=${q3}:`) && l4.endsWith(': replying'), "wachat stores bob's reply with the quoted id", l4);
	w.cmd(`reply ${bobJid} ${s4.key.id} ${bobJid} right back`);
	const q5 = idOf(await w.wait(60000, 'queued reply', /^dm-message .*: right back$/));
	const g5 = await bobWait(10000, "wachat's reply", upserted(q5)).catch(() => null);
	const ci = g5 && msgOf(g5, q5)?.message?.extendedTextMessage?.contextInfo;
	ok(ci?.stanzaId === s4.key.id && text(msgOf(g5, q5)) === 'right back', "Baileys reads wachat's reply quoting its message", ci);

	// 5. Reactions both ways.
	await bob.sock.sendMessage(meJid, { react: { text: '👍', key: msgOf(g5, q5).key } });
	const l6 = await w.wait(60000, "bob's reaction", new RegExp(`^dm-reaction ${bobJid} ${q5} ${bobJid}: 👍$`)).catch(() => null);
	ok(l6, "wachat stores bob's reaction to its message", w.lines.slice(-5));
	w.cmd(`react ${bobJid} ${s4.key.id} them ❤️`);
	const g7 = await bobWait(10000, "wachat's reaction", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.message?.reactionMessage?.key?.id === s4.key.id)).catch(() => null);
	const rm = g7?.d.messages.find((m) => m.message?.reactionMessage)?.message.reactionMessage;
	ok(rm?.text === '❤️', 'Baileys gets wachat\'s reaction to its message', rm);
	w.cmd(`react ${bobJid} ${s4.key.id} them -`);
	const g7b = await bobWait(10000, "wachat's reaction removed", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => m.message?.reactionMessage?.key?.id === s4.key.id &&
			m.message.reactionMessage.text === '')).catch(() => null);
	ok(g7b, 'Baileys sees wachat take its reaction back');

	// 5b. Received edits and deletes are stored against their target; a
	// location from Baileys is read with its coordinates and link
	// (protocol-features.md 3.2, issue 20).
	const s12 = await bob.sock.sendMessage(meJid, { text: 'a typo' });
	await w.wait(60000, 'the text to edit', new RegExp(`^dm-message ${bobJid} ${s12.key.id} `));
	await bob.sock.sendMessage(meJid, { text: 'no typo', edit: s12.key });
	const l12 = await w.wait(60000, 'the edit', new RegExp(`^dm-changed ${bobJid} ${s12.key.id}: no typo$`)).catch(() => null);
	ok(l12, "wachat applies bob's edit to the message it targets", w.lines.slice(-5));
	await bob.sock.sendMessage(meJid, { delete: s12.key });
	const l13 = await w.wait(60000, 'the delete', new RegExp(`^dm-deleted ${bobJid} ${s12.key.id}$`)).catch(() => null);
	ok(l13, "wachat marks the message bob deleted for everyone", w.lines.slice(-5));
	const s14 = await bob.sock.sendMessage(meJid, { location: { degreesLatitude: 52.52, degreesLongitude: 13.4 } });
	const l14 = await w.wait(60000, 'the location', new RegExp(`^dm-message ${bobJid} ${s14.key.id} `)).catch(() => null);
	ok(l14 && /notice=0 .*: rich: Location \| 52\.520000, 13\.400000 \| https:\/\/www\.openstreetmap\.org\/\?mlat=52\.520000&mlon=13\.400000#map=16\/52\.520000\/13\.400000$/.test(l14),
		"Baileys' location is read: its coordinates and OpenStreetMap link", l14);

	// 5c. wachat edits its own message and deletes another for everyone:
	// Baileys applies both to the messages they target (protocol.md 11.4,
	// 11.5: editedMessage with edit="1", REVOKE with edit="7").
	const protoOf = (m) => m?.message?.protocolMessage ?? m?.message?.editedMessage?.message?.protocolMessage;
	const touches = (id, type) => (x) => (x.e === 'messages.upsert' && x.d.messages.some((m) => protoOf(m)?.key?.id === id &&
		[type, type === 14 ? 'MESSAGE_EDIT' : 'REVOKE'].includes(protoOf(m)?.type))) ||
		(x.e === 'messages.update' && x.d.some((u) => u.key?.id === id && (type === 14 ? u.update?.message?.editedMessage : u.update?.messageStubType === 1)));
	w.cmd(`send ${bobJid} see you at 8`);
	const qe = idOf(await w.wait(60000, 'queued e', new RegExp(`^dm-message ${bobJid} \\S+ from_me=1 state=queued .*: see you at 8$`)));
	ok(await bobWait(10000, 'the text to edit', upserted(qe)).then(() => true, () => false), 'Baileys gets the message wachat will edit');
	w.cmd(`edit ${bobJid} ${qe} see you at 9`);
	const le = await w.wait(60000, 'edited here', new RegExp(`^dm-changed ${bobJid} ${qe}: see you at 9$`)).catch(() => null);
	const ge = await bobWait(10000, "wachat's edit", touches(qe, 14)).catch(() => null);
	const ep = ge?.e === 'messages.upsert' ? protoOf(ge.d.messages.find((m) => protoOf(m)?.key?.id === qe))?.editedMessage :
		ge?.d.find((u) => u.key?.id === qe)?.update?.message?.editedMessage?.message?.protocolMessage?.editedMessage;
	ok(le && ep?.conversation === 'see you at 9', "wachat edits its message: at once here, and Baileys reads the new text for it", { le, ep });
	w.cmd(`revoke ${bobJid} ${qe}`);
	const ld = await w.wait(60000, 'deleted here', new RegExp(`^dm-deleted ${bobJid} ${qe}$`)).catch(() => null);
	const gd = await bobWait(10000, "wachat's delete", touches(qe, 0)).catch(() => null);
	ok(ld && gd, 'wachat deletes it for everyone: at once here, and Baileys sees the revoke of it', { ld, gd: gd?.e });
	w.cmd(`edit ${bobJid} NOSUCHID x`);
	ok(await w.wait(60000, 'refused', /^error: /).then(() => true, () => false), 'editing an unknown message is refused');

	// 6. Typing both ways.
	w.cmd(`subscribe ${bobJid}`);
	await sleep(300);
	await bob.sock.sendPresenceUpdate('composing', meJid);
	ok(await w.wait(60000, 'typing', new RegExp(`^dm-typing ${bobJid} on$`)).then(() => true, () => false),
		'wachat sees bob typing');
	await bob.sock.presenceSubscribe(meJid);
	w.cmd(`typing ${bobJid} on`);
	const ty = await bobWait(5000, 'composing', (x) => x.e === 'presence.update' &&
		Object.values(x.d.presences).some((p) => p.lastKnownPresence === 'composing')).catch(() => null);
	ok(ty && ty.d.id.startsWith(ME), 'Baileys sees wachat typing', ty?.d);

	// 7. wachat offline: bob's message waits, arrives at wachat's next
	// login exactly once; a message wachat queues before it connects goes
	// out once it does.
	ok(await w.quit() === 0, 'wachat stops cleanly');
	const s8 = await bob.sock.sendMessage(meJid, { text: 'while you were away' });
	await sleep(300);
	w = wachat();
	w.cmd(`send ${bobJid} queued before login`);
	const l8 = await w.wait(60000, 'the queued text', new RegExp(`^dm-message ${bobJid} ${s8.key.id} from_me=0`)).catch(() => null);
	ok(l8 && l8.endsWith(': while you were away'), "wachat, started again, gets bob's message sent while it was offline", w.lines.slice(-10));
	const q9 = idOf(await w.wait(60000, 'queued 9', /^dm-message .*: queued before login$/));
	const g9 = await bobWait(15000, 'the outbox text', upserted(q9)).catch(() => null);
	ok(text(g9 && msgOf(g9, q9)) === 'queued before login', 'a message queued before the login goes out once connected');
	await sleep(1500);
	ok(w.count(new RegExp(`^dm-message ${bobJid} ${s8.key.id} `)) === 1 &&
		bob.ev.filter(upserted(q9)).length === 1, 'each arrived exactly once');

	// 8. bob offline: wachat's message waits for bob's next login.
	bob.sock.end(undefined);
	await until(60000, async () => !(await sim.ctl('GET', '/admin/connections')).body.some((x) => x.jid === `${BOB}:1@s.whatsapp.net`));
	w.cmd(`send ${bobJid} for when you are back`);
	const q10 = idOf(await w.wait(60000, 'queued 10', /^dm-message .*: for when you are back$/));
	await w.wait(60000, 'sent 10', new RegExp(`^dm-state ${bobJid} ${q10} sent$`));
	bob.ev = [];
	await bobConnect();
	await bobOpen();
	const g10 = await bobWait(15000, 'the waiting text', upserted(q10)).catch(() => null);
	ok(text(g10 && msgOf(g10, q10)) === 'for when you are back', 'bob gets wachat\'s message at his next login');
	ok(await w.wait(60000, 'delivered 10', new RegExp(`^dm-state ${bobJid} ${q10} delivered$`)).then(() => true, () => false),
		'and wachat sees it delivered');

	// 9. Retry: wachat loses its session with bob; bob's next message
	// cannot be decrypted, wachat sends a retry receipt, Baileys fetches a
	// fresh bundle and sends it again as a pkmsg, and wachat stores it.
	ok(await w.quit() === 0, 'wachat stops to lose its sessions with bob');
	const db = path.join(store, 'wachat.db');
	const del = spawn('sqlite3', [db, `DELETE FROM session WHERE name LIKE '${BOB}%'`]);
	const delCode = await new Promise((resolve) => del.on('exit', resolve));
	ok(delCode === 0, "wachat's sessions with bob are deleted from its database");
	w = wachat();
	await w.wait(60000, 'connected again', /^connected /);
	const s11 = await bob.sock.sendMessage(meJid, { text: 'can you read this?' });
	bob.sent.set(s11.key.id, s11.message);
	const l11 = await w.wait(60000, 'the re-sent text', new RegExp(`^dm-message ${bobJid} ${s11.key.id} from_me=0`)).catch(() => null);
	r = (await routes()).filter((x) => x.id === s11.key.id);
	ok(r.some((x) => x.kind === 'receipt' && x.type === 'retry' && x.from.startsWith(`${ME}:1@`)) &&
		r.filter((x) => x.kind === 'message' && x.to === `${ME}:1@s.whatsapp.net`).length >= 2,
		'wachat could not decrypt it and sent a retry receipt; Baileys sent it again', { r, baileys: bobLines.slice(-15) });
	ok(l11 && l11.endsWith(': can you read this?'), 'wachat decrypts the re-sent message and stores it', w.lines.slice(-10));

	const st = (await sim.ctl('GET', '/admin/status')).body;
	ok(st.unanswered_queries === 0, 'the sim answered every query', sim.log().split('\n').filter((l) => /unanswered/.test(l)).slice(0, 10).join('\n'));
	ok(await w.quit() === 0 && !/Sanitizer|runtime error/.test(w.err), 'wachat stops cleanly, no sanitizer report', w.err.slice(-2000));
} catch (e) {
	ok(false, `no exception: ${e.stack}`, w && w.lines.slice(-20).join('\n'));
	if (w)
		await w.quit();
}
try {
	bob.sock?.end(undefined);
} catch { /* closed */ }
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(bob.dir);
process.exit(finish());
