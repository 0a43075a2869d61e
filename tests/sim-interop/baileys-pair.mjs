// SPDX-License-Identifier: GPL-3.0-or-later
// An unmodified Baileys client (makeWASocket), told only the sim's URL and
// root key (interop.md 0), against wachat-sim: the Noise handshake and
// pair-device (Baileys emits a QR), then the sim as the phone: the QR
// scanned over the admin interface, pair-success, Baileys' signed
// pair-device-sign checked by the sim, the 515 restart, and a login with
// the saved credentials answered with <success>.  TAP.
import fs from 'node:fs';
import path from 'node:path';
import { bail, finish, rmTree, importPkg, ok, quietLogger, rootPub, startSim, until, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;

// The only override: trust the test root (Baileys reads this object).
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim();
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const PN = '15550000001';
const authDir = path.join(sim.tmp, 'auth');
const events = [];
let sock;

function connect(state, saveCreds) {
	const s = makeWASocket({
		waWebSocketUrl: sim.url,
		auth: state,
		logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'),
		connectTimeoutMs: 10000,
		defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: false,
		syncFullHistory: false,
		shouldSyncHistoryMessage: () => false,
	});
	s.ev.on('creds.update', saveCreds);
	s.ev.on('connection.update', (u) => events.push(u));
	return s;
}

const waitEvent = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const e = events.find(pred);
		if (e)
			return e;
		await new Promise((r) => setTimeout(r, 20));
	}
})(), what);

try {
	const acct = await sim.ctl('POST', '/admin/accounts', { pn: PN, name: 'alice' });
	ok(acct.status === 200, 'the sim creates the account that will scan', acct.body);

	const { state, saveCreds } = await baileys.useMultiFileAuthState(authDir);
	sock = connect(state, saveCreds);
	const { qr } = await waitEvent(60000, 'a QR from Baileys', (e) => e.qr);
	const fields = qr.replace('https://wa.me/settings/linked_devices#', '').split(',');
	ok(qr.startsWith('https://wa.me/settings/linked_devices#2@') && fields.length === 5 && fields[4] === '1',
		'Baileys completes the handshake, gets pair-device and emits a QR', qr);
	const conns = (await sim.ctl('GET', '/admin/connections')).body;
	const c = await until(60000, async () =>
		(await sim.ctl('GET', '/admin/connections')).body.find((x) => x.pair_device_acked));
	ok(c && c.kind === 'registration' && c.origin === 'https://web.whatsapp.com' && c.signed_prekey_verifies &&
		c.refs === 6, "the sim holds Baileys' registration and its ack of pair-device", { conns, c });

	const dry = await sim.ctl('POST', '/admin/mock-phone/scan-qr?dry_run=1', qr);
	ok(dry.status === 200 && dry.body.noise_pub === Buffer.from(state.creds.noiseKey.public).toString('hex') &&
		dry.body.identity_pub === Buffer.from(state.creds.signedIdentityKey.public).toString('hex') &&
		dry.body.device_jid === `${PN}:1@s.whatsapp.net`,
		"a dry scan parses the QR into Baileys' noise and identity keys", dry.body);

	const scan = await sim.ctl('POST', '/admin/mock-phone/scan-qr', qr);
	ok(scan.status === 200 && scan.body.paired === true, 'the mock phone scans the QR and sends pair-success', scan.body);
	const closed = await waitEvent(60000, 'the 515 restart', (e) => e.connection === 'close');
	const code = closed.lastDisconnect?.error?.output?.statusCode;
	ok(code === 515, `Baileys accepts pair-success, signs it and is told to restart (515): ${code}`,
		closed.lastDisconnect?.error?.message);
	const dev = (await sim.ctl('GET', `/admin/devices/${PN}:1@s.whatsapp.net`)).body;
	ok(dev.signed_back === true && dev.noise_pub === dry.body.noise_pub,
		"the sim verified Baileys' deviceSignature in pair-device-sign and keeps the device", dev);
	ok(state.creds.me?.id?.startsWith(`${PN}:1@`) && state.creds.me?.lid?.startsWith('100000000000001:1@'),
		'Baileys stored its new JID and LID', state.creds.me);

	// The restart: a login with the saved creds gets <success>.
	sock = connect(state, saveCreds);
	const login = await until(60000, async () =>
		(await sim.ctl('GET', '/admin/connections')).body.find((x) => x.kind === 'login' && x.authenticated));
	ok(login && login.jid === `${PN}:1@s.whatsapp.net` && login.passive === true,
		'Baileys logs in with the saved credentials and the sim answers <success>', login);
	// Let it finish the connect sequence (it writes 812 prekeys) before
	// ending it.
	const open = await waitEvent(60000, 'connection open', (e) => e.connection === 'open');
	ok(open.connection === 'open', 'Baileys reaches connection: open');
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
try {
	sock?.end(undefined);
} catch { /* already closed */ }
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(authDir);
process.exit(finish());
