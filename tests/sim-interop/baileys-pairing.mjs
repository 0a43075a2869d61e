// SPDX-License-Identifier: GPL-3.0-or-later
// An unmodified Baileys client against wachat-sim's other pairing paths:
// companion_reg_refresh (protocol.md 6.2.1) on request and at random, after
// which a QR scanned before it is refused (Baileys 7.0.0-rc14 has no
// handler, so it never shows a new secret); pairing by phone-number code
// (6.7) with the sim's phone entering Baileys' code; failure 405 below a
// minimum version and the /sw.js page carrying a newer one (3.3).  TAP.
import fs from 'node:fs';
import path from 'node:path';
import { bail, finish, importPkg, nodeModules, ok, quietLogger, rootPub, sleep, startSim, until, within } from './lib.mjs';

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
const PN = '15550000003';
const socks = [];
let n = 0;

// A new Baileys client with fresh credentials; its events in c.events.
async function client(extra = {}) {
	const dir = path.join(sim.tmp, `auth${++n}`);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const c = { state: extra.auth ?? state, events: [] };
	c.sock = makeWASocket({
		waWebSocketUrl: sim.url,
		auth: c.state,
		logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'),
		connectTimeoutMs: 10000,
		defaultQueryTimeoutMs: 5000,
		markOnlineOnConnect: false,
		syncFullHistory: false,
		shouldSyncHistoryMessage: () => false,
		...extra,
	});
	c.sock.ev.on('creds.update', saveCreds);
	c.sock.ev.on('connection.update', (u) => c.events.push(u));
	c.wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const e = c.events.find(pred);
			if (e)
				return e;
			await sleep(20);
		}
	})(), what);
	socks.push(c.sock);
	return c;
}

// The newest registration connection that acked pair-device.
const regConn = () => until(60000, async () => (await sim.ctl('GET', '/admin/connections')).body
	.filter((x) => x.kind === 'registration' && x.pair_device_acked && x.state === 'ready')
	.sort((a, b) => b.id - a.id)[0]);

try {
	const acct = await sim.ctl('POST', '/admin/accounts', { pn: PN, name: 'carol' });
	ok(acct.status === 200, 'the sim creates the account', acct.body);

	// 1. companion_reg_refresh on request.
	const a = await client();
	const { qr } = await a.wait(60000, 'a QR', (e) => e.qr);
	const ca = await regConn();
	const dry = await sim.ctl('POST', '/admin/mock-phone/scan-qr?dry_run=1', qr);
	ok(dry.status === 200 && dry.body.refreshes === 0, 'the phone sees the QR (dry scan) before any refresh', dry.body);
	const ref = await sim.ctl('POST', `/admin/connections/${ca.id}/reg-refresh`, {});
	ok(ref.status === 200, 'the sim sends companion_reg_refresh to the unpaired connection', ref.body);
	// Baileys' ack reads creds.me.id, unset before pairing: it throws, so
	// an unpaired Baileys acks no notification (a fact of 7.0.0-rc14).
	const acked = await until(1000, () => /acked \(companion_reg_refresh\)/.test(sim.log()));
	ok(!acked, 'unpaired Baileys 7.0.0-rc14 does not ack the notification (its ack needs creds.me)');
	const late = await sim.ctl('POST', '/admin/mock-phone/scan-qr', qr);
	ok(late.status === 409 && late.body.retired === true && /retired by companion_reg_refresh/.test(late.body.error),
		'the QR scanned before the refresh is refused, naming why', late.body);
	const src = fs.readFileSync(path.join(nodeModules, '@whiskeysockets/baileys/lib/Socket/messages-recv.js'), 'utf8');
	ok(!/companion_reg_refresh|pair-device-rotate-qr/.test(src),
		'Baileys 7.0.0-rc14 has no companion_reg_refresh handler (it keeps the retired secret; nothing to pair)');
	const bad = await sim.ctl('POST', `/admin/connections/${ca.id}/reg-refresh`, { child: 'nope' });
	ok(bad.status === 400, 'an unknown refresh child is refused', bad.body);
	a.sock.end(undefined);

	// 2. companion_reg_refresh at random (knob at 100 %): the first scan.
	await sim.ctl('POST', '/admin/knobs', { reg_refresh_pct: 100 });
	const b = await client();
	const qb = (await b.wait(60000, 'a QR', (e) => e.qr)).qr;
	const rnd = await sim.ctl('POST', '/admin/mock-phone/scan-qr', qb);
	const cb = await regConn();
	ok(rnd.status === 409 && rnd.body.retired === true && /reg_refresh_pct/.test(rnd.body.error) &&
		cb.reg_refreshes === 1, 'with reg_refresh_pct 100 the first scan gets a refresh instead and is refused',
		{ rnd: rnd.body, cb });
	const again = await sim.ctl('POST', '/admin/mock-phone/scan-qr', qb);
	ok(again.status === 409 && again.body.retired === true, 'the same QR stays refused', again.body);
	await sim.ctl('POST', '/admin/knobs', { reg_refresh_pct: 0 });
	b.sock.end(undefined);

	// 3. Pairing by phone-number code.
	const c = await client();
	await c.wait(60000, 'pair-device (a QR)', (e) => e.qr);
	const code = await c.sock.requestPairingCode(PN);
	ok(/^[1-9A-HJ-NP-TV-Z]{8}$/.test(code), `Baileys asks for a link code (${code})`);
	const hello = await until(60000, () => /link code: companion_hello for 15550000003/.test(sim.log()));
	ok(hello, 'the sim takes companion_hello and hands out a ref');
	const badcode = await sim.ctl('POST', '/admin/mock-phone/enter-code', { code: 'ABC' });
	ok(badcode.status === 422, 'a code that is not 8 characters is refused', badcode.body);
	const entered = await sim.ctl('POST', '/admin/mock-phone/enter-code',
		{ code: `${code.slice(0, 4)}-${code.slice(4)}` });
	ok(entered.status === 200 && entered.body.entered === true, 'the phone enters the code', entered.body);
	const closed = await c.wait(60000, 'the 515 restart', (e) => e.connection === 'close');
	const dev = (await sim.ctl('GET', `/admin/devices/${PN}:1@s.whatsapp.net`)).body;
	// After a code link Baileys often reports the close (428) before it has
	// read the 515 frame that came just before it; the sim sent 515.
	const cc = closed.lastDisconnect?.error?.output?.statusCode;
	ok((cc === 515 || cc === 428) && /pair-device-sign verified: 15550000003:1 paired; sending 515/.test(sim.log()) &&
		dev.signed_back === true &&
		dev.noise_pub === Buffer.from(c.state.creds.noiseKey.public).toString('hex'),
		'companion_finish verifies, pair-success carries the derived ADV secret, Baileys signs it: 515',
		{ code: cc, dev });

	// The code-linked client logs in with what it saved and opens.
	const c2 = await client({ auth: c.state });
	const open = await c2.wait(60000, 'connection open', (x) => x.connection === 'open' || x.connection === 'close');
	ok(open.connection === 'open', 'the code-linked Baileys logs in and opens', open);
	c2.sock.end(undefined);

	// A wrong code: the sim's phone wraps with it, the bundle fails.
	const w = await client();
	await w.wait(60000, 'pair-device (a QR)', (x) => x.qr);
	const wcode = await w.sock.requestPairingCode('15550000003');
	const wrong = wcode.startsWith('1111') ? '22222222' : '11111111';
	const wr = await sim.ctl('POST', '/admin/mock-phone/enter-code', { code: wrong });
	const wfail = await until(60000, () => /companion_finish refused: the key bundle does not decrypt/.test(sim.log()));
	ok(wr.status === 200 && wfail, 'with a wrong code companion_finish is refused (the bundle does not decrypt)', wr.body);
	w.sock.end(undefined);

	// 4. 405 below a minimum version; /sw.js carries a newer one.
	await sim.ctl('POST', '/admin/knobs', { min_version: 2000000000, sw_revision: 2000000001 });
	const d = await client();
	const refused = await d.wait(60000, 'a close', (e) => e.connection === 'close');
	const st = refused.lastDisconnect?.error?.output?.statusCode;
	ok(st === 405, `a client older than 2.3000.2000000000 gets failure 405 (${st})`);
	d.sock.end(undefined);
	// with the headers Baileys' fetchLatestWaWebVersion sends (the sim
	// answers a bot check without them, issue 16)
	const sw = await fetch(`${sim.admin}/sw.js`, { headers: {
		'sec-fetch-site': 'none',
		'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
	} });
	const body = await sw.text();
	const m = body.match(/\\?"client_revision\\?":\s*(\d+)/);
	ok(sw.status === 200 && m && m[1] === '2000000001', '/sw.js carries "client_revision":2000000001', body);
	const e = await client({ version: [2, 3000, Number(m?.[1] ?? 0)] });
	const qe = await e.wait(60000, 'a QR or a close', (x) => x.qr || x.connection === 'close');
	ok(qe.qr !== undefined, 'with that version the sim accepts it (pair-device, a QR)', qe);
	e.sock.end(undefined);
	await sim.ctl('POST', '/admin/knobs', { min_version: 0 });
	const st2 = (await sim.ctl('GET', '/admin/status')).body;
	ok(st2.unanswered_queries === 0 && !/unhandled stanza/.test(sim.log()), 'no unanswered query, no unhandled stanza',
		sim.log().split('\n').filter((l) => /unanswered|unhandled/.test(l)));
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
for (const s of socks) {
	try {
		s.end(undefined);
	} catch { /* already closed */ }
}
if (process.env.SIM_DUMP_LOG)
	process.stderr.write(sim.log());
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
process.exit(finish());
