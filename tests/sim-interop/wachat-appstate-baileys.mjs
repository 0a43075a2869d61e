// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 18: app state both ways between wachat and unmodified Baileys
// (7.0.0-rc14, appStateMacVerification on), two companions of the same
// wachat-sim account.  wachat's curses UI runs in a detached 100x30 tmux
// pane; Echo, Alice and Bob have each sent the account a message.
//  1. In wachat: Tab opens Echo, Alt-n 3 mutes it for good, Alt-t pins
//     it, Up Alt-* stars its message, Alt-a archives it.  Each is a patch
//     of wachat's device in the sim (decoded by the sim), and Baileys,
//     told by server_sync, syncs the same actions with its MACs checked:
//     chats.update muteEndTime -1, pinned, archived; messages.update
//     starred for that message.
//  2. In Baileys: chatModify mute (an hour) and pin on Alice, markRead
//     false on her once wachat has opened (read) her chat, then archive
//     on Bob.  wachat, told by server_sync, shows them in its chat list:
//     Alice muted and pinned (its marks) and marked unread (●), Bob gone
//     to the Archived folder (Alt-z shows him there).
// Needs SIM_TLS_CERT, SIM_TLS_KEY, NODE_EXTRA_CA_CERTS.  TAP.  Every wait
// is bounded; tmux, wachat and the sim are stopped at the end.
//
// As tests/sim-interop/baileys-appstate.mjs: Baileys fetches app-state
// blobs from its fixed mmg.whatsapp.net, so fetch goes to the sim's media
// host, and what its processSyncAction emits is recorded (sock.ev.emit
// wrapped) rather than waited for in its chat store.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bail, builddir, finish, importPkg, ok, rootPub, simBin, startSim, until } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS');
try {
	execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
	bail('tmux is not installed');
}

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
const realFetch = globalThis.fetch;
globalThis.fetch = (url, opts) => {
	const u = String(url);
	if (u.startsWith('https://mmg.whatsapp.net/'))
		return realFetch(`https://127.0.0.1:${mediaPort}/${u.slice('https://mmg.whatsapp.net/'.length)}`, opts);
	return realFetch(url, opts);
};

const ME = '15550000001';
const meJid = `${ME}@s.whatsapp.net`;
const ECHO = '15550000002@s.whatsapp.net';
const ALICE = '15550000003@s.whatsapp.net';
const BOB = '15550000004@s.whatsapp.net';
const wssUrl = sim.url.replace(/^ws:/, 'wss:');
const home = path.join(sim.tmp, 'home');
const qrFile = path.join(sim.tmp, 'qr');
const sock = path.join(sim.tmp, 'tmux.sock');
const logFile = path.join(home, '.local/state/wachat/wachat.log');
const errFile = path.join(sim.tmp, 'w.err');
const statusFile = path.join(sim.tmp, 'status');
fs.mkdirSync(home, { mode: 0o700 });

const ctl = (lines) => {
	const r = spawnSync('sh', ['-ec', `ctl() { "$SIM" ctl --admin "$ADMIN" "$@" >/dev/null; }\n${lines}`],
		{ env: { ...process.env, SIM: simBin, ADMIN: sim.admin }, encoding: 'utf8' });
	if (r.status !== 0)
		bail(`ctl failed: ${r.stderr}`);
};
const tm = (...args) => execFileSync('tmux', ['-u', '-S', sock, '-f', '/dev/null', ...args],
	{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const capture = () => {
	try {
		return tm('capture-pane', '-p', '-t', 'wachat');
	} catch {
		return '';
	}
};
let pane = '';
const paneWait = async (ms, re) => !!await until(ms, () => re.test(pane = capture()));
const paneGone = async (ms, re) => !!await until(ms, () => !re.test(pane = capture()));
const keys = (...k) => tm('send-keys', '-t', 'wachat', ...k);
const logText = () => {
	try {
		return fs.readFileSync(logFile, 'utf8');
	} catch {
		return '';
	}
};
const logTail = () => logText().split('\n').slice(-25).join('\n');
process.on('exit', () => { try { tm('kill-server'); } catch { /* gone */ } });

const status = async () => (await sim.ctl('GET', `/admin/appstate?pn=${ME}`)).body;
const coll = (st, name) => st.collections.find((c) => c.name === name);
// The sim's live record of index (an array) in collection cn, or null.
const record = (st, cn, index) => coll(st, cn).actions.find((a) => JSON.stringify(JSON.parse(a.index)) === JSON.stringify(index)) ?? null;
const byDevice = async (ms, cn, index, pred) => until(ms, async () => {
	const r = record(await status(), cn, index);
	return r && r.by.startsWith('device') && pred(r.action ?? {}) ? r : null;
});

// Baileys, the account's second companion.
const b = { dir: path.join(sim.tmp, 'auth-baileys'), ev: [], upd: [], warns: [] };
const log = (o, m) => b.warns.push(`${typeof o === 'string' ? o : m ?? ''}`);
const logger = { level: 'warn', child() { return logger; }, trace() {}, debug() {}, info() {}, warn: log, error: log, fatal: log };
function connect() {
	b.sock = makeWASocket({
		waWebSocketUrl: wssUrl, auth: b.state, logger, browser: baileys.Browsers.ubuntu('Chrome'),
		connectTimeoutMs: 10000, defaultQueryTimeoutMs: 10000, markOnlineOnConnect: false,
		shouldSyncHistoryMessage: () => false, appStateMacVerification: { patch: true, snapshot: true },
		fireInitQueries: true,
	});
	const s = b.sock;
	s.ev.on('creds.update', b.saveCreds);
	s.ev.on('connection.update', (d) => { if (b.sock === s) b.ev.push(d); });
	const emit = s.ev.emit.bind(s.ev);
	s.ev.emit = (e, d) => {
		if (e === 'chats.update' || e === 'messages.update')
			for (const x of d)
				b.upd.push({ e, ...x });
		return emit(e, d);
	};
}
const bWait = async (ms, what, pred) => {
	const x = await until(ms, () => b.ev.find(pred));
	if (!x)
		throw new Error(`Baileys: no ${what} within ${ms} ms`);
	return x;
};
const chatUpd = (id, field) => b.upd.filter((u) => u.e === 'chats.update' && u.id === id && field in u);
const last = (v) => v[v.length - 1];
const macWarns = () => b.warns.filter((w) => /verification failed|patch mac|snapshot mac|failed to decode|Invalid/i.test(w));

try {
	ctl(`ctl account ${ME} 100000000000001 "Demo User"
ctl contact 15550000002 100000000000002 "Echo" ${ME}
ctl contact 15550000003 100000000000003 "Alice" ${ME}
ctl contact 15550000004 100000000000004 "Bob" ${ME}`);

	// wachat, linked first.
	const cmd = `env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='${home}' ` +
		`'${path.join(builddir, 'wachat')}' --url '${wssUrl}' --root-key '${rootPub}' --ca-file '${cert}' ` +
		`--data-dir '${path.join(sim.tmp, 'data')}' --qr-file '${qrFile}' 2>>'${errFile}'; echo $? >'${statusFile}'`;
	tm('new-session', '-d', '-s', 'wachat', '-x', '100', '-y', '30', cmd);
	await until(60000, () => fs.existsSync(qrFile) && /https:\/\/wa\.me/.test(fs.readFileSync(qrFile, 'utf8')));
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, fs.readFileSync(qrFile, 'utf8').trim());
	ok(scan.status === 200 && await paneWait(20000, new RegExp(`connected as .*\\+${ME}`)),
		'wachat links by QR and shows itself connected', pane + logTail());
	await until(60000, () => /prekeys: event 6, \d+ keys/.test(logText()));
	ok(!!await until(20000, () => /app state regular_low: snapshot \d+ committed/.test(logText())),
		'... gets the app-state key and syncs the collections', logTail());
	ctl(`ctl phone-send 15550000004 ${meJid} "from Bob"
ctl phone-send 15550000003 ${meJid} "from Alice"
ctl phone-send 15550000002 ${meJid} "hello from Echo"`);
	ok(await paneWait(15000, /hello from Echo/) && /from Alice/.test(pane) && /from Bob/.test(pane),
		"the three chats are in wachat's list", pane);

	// Baileys, linked second.
	({ state: b.state, saveCreds: b.saveCreds } = await baileys.useMultiFileAuthState(b.dir));
	connect();
	const { qr } = await bWait(60000, 'a QR', (x) => x.qr);
	await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ME}`, qr);
	await bWait(60000, 'the 515 restart', (x) => x.connection === 'close');
	b.ev = [];
	connect();
	const open = await bWait(60000, 'open', (x) => x.connection === 'open' || x.connection === 'close');
	const keyId = await until(30000, () => b.state.creds.myAppStateKeyId);
	ok(open.connection === 'open' && !!keyId, 'Baileys links as a second companion of the account and gets the key', open);
	await b.sock.resyncAppState(ALL, true);

	// 1. wachat -> Baileys.
	keys('Tab');
	ok(await paneWait(10000, /│ Echo/), 'Tab opens Echo in wachat', pane);
	keys('M-n');
	await paneWait(5000, /Mute Echo/);
	keys('3');
	const mute = await byDevice(15000, 'regular_high', ['mute', ECHO], (a) => a.kind === 'mute' && a.flag && a.mute_end_ms === -1);
	ok(!!mute, "Alt-n 3: the sim holds wachat's mute of Echo (always)", coll(await status(), 'regular_high').actions);
	ok(!!await until(15000, () => last(chatUpd(ECHO, 'muteEndTime'))?.muteEndTime === -1),
		'... Baileys gets server_sync and syncs Echo muted for good (muteEndTime -1)', b.upd.slice(-4));
	keys('M-t');
	ok(!!await byDevice(15000, 'regular_low', ['pin_v1', ECHO], (a) => a.kind === 'pin' && a.flag),
		"Alt-t: wachat's pin of Echo in the sim", coll(await status(), 'regular_low').actions);
	ok(!!await until(15000, () => last(chatUpd(ECHO, 'pinned'))?.pinned > 0), '... Baileys syncs Echo pinned',
		b.upd.slice(-4));
	keys('Up');
	keys('M-*');
	const star = await until(15000, async () => coll(await status(), 'regular_high').actions.find((a) =>
		JSON.parse(a.index)[0] === 'star' && JSON.parse(a.index)[1] === ECHO && a.by.startsWith('device') && a.action?.flag));
	const msgId = star && JSON.parse(star.index)[2];
	ok(!!star, "Up, Alt-*: wachat's star of Echo's message in the sim", coll(await status(), 'regular_high').actions);
	ok(!!await until(15000, () => b.upd.some((u) => u.e === 'messages.update' && u.key?.remoteJid === ECHO &&
		u.key.id === msgId && u.key.fromMe === false && u.update?.starred === true)),
	`... Baileys syncs that message (${msgId}) starred (messages.update)`, b.upd.filter((u) => u.e === 'messages.update'));
	keys('Escape');
	keys('M-a');
	ok(!!await byDevice(15000, 'regular_low', ['archive', ECHO], (a) => a.kind === 'archive' && a.flag),
		"Alt-a: wachat's archive of Echo in the sim", coll(await status(), 'regular_low').actions);
	ok(!!await until(15000, () => last(chatUpd(ECHO, 'archived'))?.archived === true), '... Baileys syncs Echo archived',
		b.upd.slice(-4));
	ok(macWarns().length === 0, "Baileys verified every patch of wachat's (MACs on) without a warning", b.warns);

	// 2. Baileys -> wachat.
	const seen = async (what, re) => ok(await paneWait(15000, re), what, pane + logTail());
	await b.sock.chatModify({ mute: Date.now() + 3600000 }, ALICE);
	await seen("Baileys mutes Alice (chatModify): wachat's list shows her muted", /🔇 Alice/);
	await b.sock.chatModify({ pin: true }, ALICE);
	await seen("Baileys pins Alice: wachat's list shows her pinned", /📌🔇 Alice/);
	// Alice read in wachat first (opened), so that the mark shows.
	keys('C-n');
	await paneWait(5000, /Open a chat/);
	tm('send-keys', '-t', 'wachat', '-l', 'Alice');
	keys('Enter');
	ok(await paneWait(15000, /from Alice *│/), 'wachat opens Alice: her message read, no unread count', pane);
	await b.sock.chatModify({ markRead: false, lastMessages: [] }, ALICE);
	await seen("Baileys marks Alice unread (markRead false): wachat's list marks her row (●)", /from Alice *● *│/);
	await b.sock.chatModify({ archive: true, lastMessages: [] }, BOB);
	ok(await paneGone(15000, /^Bob Novak/m), "Baileys archives Bob: he leaves wachat's main list", pane);
	keys('M-z');
	await seen("... Alt-z shows him in wachat's Archived folder", /^Bob Novak/m);
	keys('M-z');
	const st = await status();
	ok(st.collections.every((c) => c.patches.every((p) => !p.bad_mac)) && st.refused === 0,
		'the sim refused no patch of either companion', { refused: st.refused, accepted: st.accepted });

	keys('C-q');
	await until(60000, () => fs.existsSync(statusFile) && fs.readFileSync(statusFile, 'utf8').trim() !== '');
	const code = fs.existsSync(statusFile) ? fs.readFileSync(statusFile, 'utf8').trim() : 'none';
	let err = '';
	try { err = fs.readFileSync(errFile, 'utf8') + logText(); } catch { /* none */ }
	ok(code === '0' && !/Sanitizer|runtime error:/.test(err), `Ctrl-q quits wachat cleanly (status ${code}), no sanitizer report`,
		err.slice(-2000));
} catch (e) {
	ok(false, `the scenario ran to its end: ${e.stack}`, capture() + logTail());
}
try {
	b.sock?.end(undefined);
} catch { /* ended */ }
try { tm('kill-server'); } catch { /* gone */ }
const code = await sim.stop();
ok(code === 0, 'wachat-sim exits cleanly', { code, stderr: sim.stderr().slice(-2000) });
process.exit(finish());
