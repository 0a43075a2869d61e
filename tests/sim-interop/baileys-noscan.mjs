// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 16, point 5: what the reference does when nobody scans.  An
// unmodified Baileys client against wachat-sim (2 refs a registration,
// Baileys' qrTimeout 1500 ms: its QR codes last 3 s): when the refs run
// out Baileys ends the connection with its QR timeout ("QR refs attempts
// ended", DisconnectReason.timedOut, 408) and registers no more on its
// own: the sim counts one registration over 8 s (more than two cycles).
// TAP.
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, rootPub, sleep, startSim, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--refs', '2']);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const attempts = async () => (await sim.ctl('GET', '/admin/status')).body.attempts ?? {};
let sock;
try {
	const { state } = await baileys.useMultiFileAuthState(path.join(sim.tmp, 'auth'));
	const events = [];
	sock = makeWASocket({
		waWebSocketUrl: sim.url,
		auth: state,
		logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'),
		qrTimeout: 1500,
		connectTimeoutMs: 10000,
		markOnlineOnConnect: false,
	});
	sock.ev.on('connection.update', (u) => events.push(u));
	const wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const e = events.find(pred);
			if (e)
				return e;
			await sleep(20);
		}
	})(), what);
	await wait(60000, 'a QR', (e) => e.qr);
	ok(true, 'Baileys shows a QR code');
	const closed = await wait(60000, 'the end of the QR codes', (e) => e.connection === 'close');
	const err = closed.lastDisconnect?.error;
	ok(err?.output?.statusCode === baileys.DisconnectReason.timedOut && /QR refs attempts ended/.test(err?.message),
		`when the refs run out Baileys ends with its QR timeout (${err?.output?.statusCode}: ${err?.message})`);
	const qrs = events.filter((e) => e.qr).length;
	ok(qrs === 2, `... after showing each of the 2 refs (${qrs} QR codes)`);
	// Watched for 8 s: no second registration.
	let regs = (await attempts()).registrations;
	const end = Date.now() + 8000;
	while (regs === 1 && Date.now() < end) {
		await sleep(200);
		regs = (await attempts()).registrations;
	}
	ok(regs === 1, `... and registers no more on its own (the sim counts ${regs} registration over 8 s)`,
		await attempts());
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
try {
	sock?.end(undefined);
} catch { /* already closed */ }
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
process.exit(finish());
