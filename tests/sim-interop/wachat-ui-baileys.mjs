// SPDX-License-Identifier: GPL-3.0-or-later
// A message with Baileys through the sim shows on both sides with its
// ticks: wachat's curses UI in a detached 100x30 tmux pane (linked as
// "me") and unmodified Baileys ("bob", paired by the sim's mock phone).
// Bob sends a text: it shows in wachat's chat list and, once Tab opens
// the chat, in the message pane, and bob sees status READ (wachat's read
// receipt).  wachat replies (typed, Enter): bob receives the text and
// wachat's pane shows the tick delivered (✓✓, not in the read colour);
// bob reads it (readMessages): the tick turns read (✓✓ in cyan, the
// colour ui/msgs.c draws read ticks in).  Disappearing messages (issue
// 20, protocol-features.md 3.5): Alt-h 2 in wachat reaches Baileys as a
// protocolMessage of type EPHEMERAL_SETTING with ephemeralExpiration
// 604800 (and Baileys' chats.update says so), and wachat's next text
// carries contextInfo.expiration 604800; Baileys' own setting (24 hours,
// which it wraps in an ephemeralMessage) shows in wachat as bob's event
// line and on the bar.  Polls (issue 20): Baileys' poll shows in wachat,
// wachat's vote (Alt-b) is read by Baileys' decryptPollVote and counted by
// getAggregateVotesInPollMessage for the option chosen; wachat's poll
// (Alt-q) reaches Baileys as pollCreationMessageV3 with its secret, and
// bob's vote on it updates wachat's tally.  TAP.  Every wait is bounded;
// tmux, wachat and the sim are killed at the end.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bail, builddir, finish, importPkg, ok, quietLogger, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

try {
	execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
	bail('tmux is not installed');
}

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
const home = path.join(sim.tmp, 'home');
const qrFile = path.join(sim.tmp, 'qr');
const sock = path.join(sim.tmp, 'tmux.sock');
const logFile = path.join(home, '.local/state/wachat/wachat.log');
const errFile = path.join(sim.tmp, 'w.err');
const statusFile = path.join(sim.tmp, 'status');
fs.mkdirSync(home, { mode: 0o700 });

// tmux on the test's own socket; the pane, captured as text (or with its
// colours as escape sequences).
const tm = (...args) => execFileSync('tmux', ['-u', '-S', sock, '-f', '/dev/null', ...args],
	{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const capture = (esc = false) => {
	try {
		return tm('capture-pane', '-p', ...(esc ? ['-e'] : []), '-t', 'wachat');
	} catch {
		return '';
	}
};
let pane = '';
const paneWait = async (ms, re, esc = false) => !!await until(ms, () => re.test(pane = capture(esc)));
const keys = (...k) => tm('send-keys', '-t', 'wachat', ...k);
const text = (s) => tm('send-keys', '-t', 'wachat', '-l', s);
const logTail = () => {
	try {
		return fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
	} catch {
		return '';
	}
};
process.on('exit', () => { try { tm('kill-server'); } catch { /* gone */ } });

// Baileys: bob.
const bob = { dir: path.join(sim.tmp, 'auth-bob'), ev: [] };
async function bobConnect() {
	bob.sock = makeWASocket({
		waWebSocketUrl: sim.url, auth: bob.state, logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000, defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: true, syncFullHistory: false, shouldSyncHistoryMessage: () => false,
		getMessage: async () => undefined,
	});
	const s = bob.sock;
	s.ev.on('creds.update', bob.saveCreds);
	for (const e of ['connection.update', 'messages.upsert', 'messages.update', 'chats.update'])
		s.ev.on(e, (d) => { if (bob.sock === s) bob.ev.push({ e, d }); });
}
const bobWait = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const x = bob.ev.find(pred);
		if (x)
			return x;
		await sleep(20);
	}
})(), `bob: ${what}`);
const msgText = (m) => m?.message?.conversation ?? m?.message?.extendedTextMessage?.text;
const READ = 4;	// proto.WebMessageInfo.Status
// bob's own user JID (no device), as Baileys names a poll's creator
const bobJidOf = (b) => `${b.state.creds.me.id.split(':')[0].split('@')[0]}@s.whatsapp.net`;

// The line of our newest message in the pane: "You HH:MM TICK".
const ourTick = (p) => {
	const l = p.split('\n').filter((x) => /│ *You \d\d:\d\d/.test(x)).pop();
	return l?.match(/You \d\d:\d\d (\S*)\s*$/)?.[1] ?? '';
};

try {
	for (const [pn, name] of [[ME, 'me'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	// wachat in tmux, linked by the mock phone.
	const cmd = `env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='${home}' ` +
		`'${path.join(builddir, 'wachat')}' --url '${sim.url}' --root-key '${rootPub}' ` +
		`--data-dir '${path.join(sim.tmp, 'data')}' --qr-file '${qrFile}' 2>>'${errFile}'; echo $? >'${statusFile}'`;
	tm('new-session', '-d', '-s', 'wachat', '-x', '100', '-y', '30', cmd);
	await until(60000, () => fs.existsSync(qrFile) && /https:\/\/wa\.me/.test(fs.readFileSync(qrFile, 'utf8')));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(qrFile, 'utf8').trim());
	ok(scan.status === 200 && await paneWait(20000, new RegExp(`connected as .*\\+${ME}`)),
		'wachat links by QR and shows itself connected', pane + logTail());
	await until(60000, () => { try { return /prekeys: event 6, \d+ keys/.test(fs.readFileSync(logFile, 'utf8')); } catch { return false; } });

	// Baileys: paired by the mock phone, then the 515 restart.
	({ state: bob.state, saveCreds: bob.saveCreds } = await baileys.useMultiFileAuthState(bob.dir));
	await bobConnect();
	const { d } = await bobWait(15000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${BOB}`, d.qr);
	await bobWait(15000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	bob.state.creds.me.name = 'bob';
	bob.ev = [];
	await bobConnect();
	const open = await bobWait(20000, 'open', (x) => x.e === 'connection.update' &&
		(x.d.connection === 'open' || x.d.connection === 'close'));
	ok(open.d.connection === 'open', 'Baileys (bob) links and logs in');

	// 1. Baileys -> wachat: in the chat list, then in the pane.
	const s1 = await bob.sock.sendMessage(meJid, { text: 'hello from Baileys 👋' });
	ok(await paneWait(15000, /hello from Baileys 👋/), "bob's text shows in wachat's chat list", pane + logTail());
	ok(/hello from Baileys 👋 +1 *($|│)/m.test(pane), '... with its unread count 1', pane);
	const delivered = await bobWait(10000, 'delivered', (x) => x.e === 'messages.update' &&
		x.d.some((u) => u.key.id === s1.key.id && u.update.status >= 3)).then(() => true, () => false);
	ok(delivered, "bob sees wachat's delivery receipt");
	ok(!bob.ev.some((x) => x.e === 'messages.update' && x.d.some((u) => u.key.id === s1.key.id && u.update.status >= READ)),
		'... and no read receipt while the chat is closed');
	keys('Tab');
	ok(await paneWait(10000, /│ *bob \d\d:\d\d/) && /│ *hello from Baileys 👋/.test(pane),
		"Tab opens the chat: bob's text in the message pane under his name", pane);
	const read = await bobWait(10000, 'READ', (x) => x.e === 'messages.update' &&
		x.d.some((u) => u.key.id === s1.key.id && u.update.status >= READ)).then(() => true, () => false);
	ok(read, "... and Baileys sees its status READ (wachat's read receipt)");

	// 2. wachat -> Baileys: typed and sent; the ticks.
	text('hi Baileys, from the terminal 🖥');
	ok(await paneWait(5000, /> hi Baileys, from the terminal/), 'the reply shows in the input line', pane);
	keys('Enter');
	const got = await bobWait(15000, "wachat's reply", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => !m.key.fromMe && msgText(m) === 'hi Baileys, from the terminal 🖥')).catch(() => null);
	const m2 = got?.d.messages.find((m) => msgText(m) === 'hi Baileys, from the terminal 🖥');
	ok(m2 && m2.key.remoteJid === meJid, 'Baileys receives the reply from wachat', { key: m2?.key, pane });
	const seen = new Set();
	await until(60000, () => { pane = capture(); seen.add(ourTick(pane)); return ourTick(pane) === '✓✓'; });
	ok(ourTick(pane) === '✓✓', `wachat's pane shows it delivered (✓✓; seen: ${[...seen].join(' ')})`, pane);
	// Read ticks are drawn in colour pair 2 (cyan): not yet.
	const cyan = /\x1b\[(?:[0-9;]*;)?(?:36|38;5;6)m[^\x1b]*✓✓/;
	const esc1 = capture(true);
	ok(/✓✓/.test(esc1) && !cyan.test(esc1), '... in the plain colour: delivered, not read',
		esc1.split('\n').filter((l) => /You/.test(l)).join('\n'));
	await bob.sock.readMessages([m2.key]);
	ok(await paneWait(10000, cyan, true), "bob reads it (readMessages): wachat's tick turns read (✓✓ in cyan)",
		pane.split('\n').filter((l) => /You/.test(l)).join('\n') + '\n' + logTail());
	pane = capture();
	const lines = pane.split('\n').map((l) => l.replace(/^[^│]*│/, ''));
	ok(lines.filter((l) => l.includes('hi Baileys, from the terminal')).length === 1 &&
		lines.filter((l) => l.includes('hello from Baileys 👋')).length === 1, 'each text shows once in the message pane', pane);

	// 3. Disappearing messages: wachat's timer (Alt-h 2: 7 days), as
	// Baileys reads it; then wachat's next text; then Baileys' own.
	const protoOf = (m) => m?.message?.protocolMessage ??
		m?.message?.ephemeralMessage?.message?.protocolMessage;
	keys('M-h');
	ok(await paneWait(5000, /Disappearing messages in bob: 1 for 24 hours/), 'Alt-h asks which timer', pane);
	keys('2');
	const set = await bobWait(15000, 'the EPHEMERAL_SETTING', (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => protoOf(m)?.type === 3)).catch(() => null);
	const pm = protoOf(set?.d.messages.find((m) => protoOf(m)?.type === 3));
	ok(pm && pm.type === 3 && Number(pm.ephemeralExpiration) === 604800 && Number(pm.ephemeralSettingTimestamp) > 0,
		"Baileys reads wachat's timer as a protocolMessage of type EPHEMERAL_SETTING, ephemeralExpiration 604800",
		JSON.stringify(pm));
	ok(await paneWait(5000, /You turned on disappearing messages: 7 days/) &&
		await paneWait(5000, /│ *bob +disappearing: 7 days/), "... wachat's own line and its bar say 7 days", pane);
	const chat = await bobWait(10000, 'chats.update', (x) => x.e === 'chats.update' &&
		x.d.some((c) => c.ephemeralExpiration === 604800)).then(() => true, () => false);
	ok(chat, "... and Baileys' chats.update gives the chat ephemeralExpiration 604800");
	text('this one disappears');
	keys('Enter');
	const got3 = await bobWait(15000, "wachat's text", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => msgText(m) === 'this one disappears')).catch(() => null);
	const m3 = got3?.d.messages.find((m) => msgText(m) === 'this one disappears');
	const ci = m3?.message?.extendedTextMessage?.contextInfo;
	ok(ci && Number(ci.expiration) === 604800, "wachat's next text carries contextInfo.expiration 604800",
		JSON.stringify(m3?.message));
	await bob.sock.sendMessage(meJid, { disappearingMessagesInChat: 86400 });
	ok(await paneWait(15000, /bob turned on disappearing messages: 24 hours/) &&
		await paneWait(5000, /│ *bob +disappearing: 24 hours/),
		"Baileys' own timer (24 hours, in an ephemeralMessage): bob's line and the bar in wachat", pane + logTail());

	// 4. Polls (protocol-features.md 3.1): Baileys' poll shown, wachat's
	// vote (Alt-b) read by Baileys' decryptPollVote and counted by its
	// getAggregateVotesInPollMessage; wachat's poll (Alt-q) voted on by
	// bob with Baileys' primitives, the tally updating in wachat.
	const poll = await bob.sock.sendMessage(meJid, { poll: { name: 'Tea or coffee?',
		values: ['Tea', 'Coffee', 'Water'], selectableCount: 1 } });
	ok(await paneWait(15000, /│ +Poll: Tea or coffee\?/) && await paneWait(5000, /│ +2\. Coffee — 0/),
		"Baileys' poll shows in wachat: the question and its options", pane + logTail());
	keys('Up');
	ok(await paneWait(5000, /Alt-b vote/), '... Up selects it: the line over the input offers Alt-b', pane);
	keys('M-b');
	ok(await paneWait(5000, /Vote \(one\):.*\[ \]2 Coffee/), '... Alt-b opens the chooser', pane);
	keys('2');
	keys('Enter');
	ok(await paneWait(10000, /│ +2\. Coffee — 1 \(You\)/), "... 2, Enter: wachat's tally has its vote", pane);
	const upd = await bobWait(15000, "wachat's vote", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => !m.key.fromMe && m.message?.pollUpdateMessage)).catch(() => null);
	const um = upd?.d.messages.find((m) => !m.key.fromMe && m.message?.pollUpdateMessage);
	const pu = um?.message?.pollUpdateMessage;
	let vote = null, why = '';
	try {
		const P = await importPkg('@whiskeysockets/baileys/lib/Utils/process-message.js');
		vote = P.decryptPollVote(pu.vote, { pollCreatorJid: bobJidOf(bob), pollMsgId: poll.key.id,
			pollEncKey: poll.message.messageContextInfo.messageSecret, voterJid: meJid });
	} catch (e) {
		why = String(e);
	}
	ok(pu && pu.pollCreationMessageKey?.id === poll.key.id && vote !== null,
		"Baileys' decryptPollVote reads wachat's vote (its poll's key, wachat as the voter)", why + JSON.stringify(pu));
	const agg = baileys.getAggregateVotesInPollMessage({ message: poll.message,
		pollUpdates: [{ pollUpdateMessageKey: um?.key, vote: vote ?? { selectedOptions: [] } }] }, bobJidOf(bob));
	ok(JSON.stringify(agg.filter((o) => o.voters.length > 0).map((o) => o.name)) === '["Coffee"]',
		"... and getAggregateVotesInPollMessage counts it for Coffee", JSON.stringify(agg));

	keys('Escape', 'M-q');
	ok(await paneWait(5000, /New poll: its question/), "Alt-q asks a poll's question", pane);
	text('Soup or salad?');
	keys('Enter');
	text('Soup');
	keys('Enter');
	text('Salad');
	keys('Enter');
	keys('Enter');
	ok(await paneWait(5000, /One answer or several\?/), '... two options, then one answer or several', pane);
	keys('1');
	const mine = await bobWait(15000, "wachat's poll", (x) => x.e === 'messages.upsert' &&
		x.d.messages.some((m) => !m.key.fromMe && m.message?.pollCreationMessageV3)).catch(() => null);
	const wm = mine?.d.messages.find((m) => !m.key.fromMe && m.message?.pollCreationMessageV3);
	const pc = wm?.message?.pollCreationMessageV3;
	const ws = wm?.message?.messageContextInfo?.messageSecret;
	ok(pc?.name === 'Soup or salad?' && pc.options.map((o) => o.optionName).join() === 'Soup,Salad' &&
		pc.selectableOptionsCount === 1 && ws?.length === 32,
		"Baileys gets wachat's poll as pollCreationMessageV3 (one answer) with a 32-byte messageSecret",
		JSON.stringify(wm?.message));
	// bob's vote for Salad, made as Baileys' decryptPollVote undoes it
	const C = await importPkg('@whiskeysockets/baileys/lib/Utils/crypto.js');
	const { proto } = await importPkg('@whiskeysockets/baileys/WAProto/index.js');
	const iv = Buffer.from('0102030405060708090a0b0c', 'hex');
	const sign = Buffer.concat([Buffer.from(wm.key.id), Buffer.from(meJid), Buffer.from(bobJidOf(bob)),
		Buffer.from('Poll Vote'), Buffer.from([1])]);
	const key = C.hmacSign(sign, C.hmacSign(ws, new Uint8Array(32), 'sha256'), 'sha256');
	const enc = C.aesEncryptGCM(proto.Message.PollVoteMessage.encode({ selectedOptions:
		[C.sha256(Buffer.from('Salad'))] }).finish(), key, iv, Buffer.from(`${wm.key.id}\u0000${bobJidOf(bob)}`));
	await bob.sock.relayMessage(meJid, { pollUpdateMessage: { pollCreationMessageKey: { remoteJid: meJid,
		fromMe: false, id: wm.key.id }, vote: { encPayload: enc, encIv: iv }, senderTimestampMs: Date.now() } }, {});
	ok(await paneWait(15000, /│ +2\. Salad — 1 \(bob\)/), "bob's vote on wachat's poll: the tally updates in wachat",
		pane + logTail());

	keys('C-q');
	await until(60000, () => fs.existsSync(statusFile) && fs.readFileSync(statusFile, 'utf8').trim() !== '');
	const st = fs.existsSync(statusFile) ? fs.readFileSync(statusFile, 'utf8').trim() : 'none';
	let err = '';
	try { err = fs.readFileSync(errFile, 'utf8') + fs.readFileSync(logFile, 'utf8'); } catch { /* none */ }
	ok(st === '0' && !/Sanitizer|runtime error:/.test(err), `Ctrl-q quits wachat cleanly (status ${st}), no sanitizer report`,
		err.slice(-2000));
} catch (e) {
	ok(false, `no exception: ${e.stack}`, capture() + logTail());
}
try {
	bob.sock?.end(undefined);
} catch { /* closed */ }
try { tm('kill-server'); } catch { /* gone */ }
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(bob.dir);
process.exit(finish());
