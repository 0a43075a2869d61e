// SPDX-License-Identifier: GPL-3.0-or-later
// An unmodified Baileys client against wachat-sim after pairing: the
// connect sequence (interop.md 3): prekey count, the upload of 812
// prekeys (stored by the sim, signed prekey verified), passive, digest,
// then `open` without waiting on any query timeout, and the queries after
// it (props, blocklist, privacy) answered; then the sim hands prekeys out
// until fewer than 5 are left, sends the encrypt notification and Baileys
// tops up (protocol.md 7.3-7.4).  TAP.
import fs from 'node:fs';
import path from 'node:path';
import { bail, finish, rmTree, importPkg, ok, quietLogger, rootPub, sleep, startSim, until, within } from './lib.mjs';

const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

// Baileys' query timeout: a query the sim left unanswered would end there
// (the sim counts such queries: checked after the login).
const QUERY_TIMEOUT = 8000;

let sim;
try {
	sim = await startSim(process.env.SIM_VERBOSE ? ['-v'] : []);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const PN = '15550000002';
const JID = `${PN}:1@s.whatsapp.net`;
const authDir = path.join(sim.tmp, 'auth');
let events = [];
let sock;

function connect(state, saveCreds) {
	const s = makeWASocket({
		waWebSocketUrl: sim.url,
		auth: state,
		logger: quietLogger,
		browser: baileys.Browsers.ubuntu('Chrome'),
		connectTimeoutMs: 10000,
		defaultQueryTimeoutMs: QUERY_TIMEOUT,
		markOnlineOnConnect: false,
		syncFullHistory: false,
		shouldSyncHistoryMessage: () => false,
	});
	s.ev.on('creds.update', saveCreds);
	s.ev.on('connection.update', (u) => events.push({ ...u, at: Date.now() }));
	return s;
}

const waitEvent = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const e = events.find(pred);
		if (e)
			return e;
		await sleep(20);
	}
})(), what);

const device = async () => (await sim.ctl('GET', `/admin/devices/${JID}`)).body;

try {
	const acct = await sim.ctl('POST', '/admin/accounts', { pn: PN, name: 'bob' });
	ok(acct.status === 200, 'the sim creates the account', acct.body);
	const { state, saveCreds } = await baileys.useMultiFileAuthState(authDir);
	sock = connect(state, saveCreds);
	const { qr } = await waitEvent(60000, 'a QR from Baileys', (e) => e.qr);
	const scan = await sim.ctl('POST', '/admin/mock-phone/scan-qr', qr);
	const closed = await waitEvent(60000, 'the 515 restart', (e) => e.connection === 'close');
	ok(scan.status === 200 && closed.lastDisconnect?.error?.output?.statusCode === 515,
		'Baileys pairs through the QR and is told to restart (515)', scan.body);

	// The login after 515.
	events = [];
	const t0 = Date.now();
	sock = connect(state, saveCreds);
	const open = await waitEvent(60000, 'connection open', (e) => e.connection === 'open' || e.connection === 'close');
	const login = await until(60000, async () =>
		(await sim.ctl('GET', '/admin/connections')).body.find((x) => x.kind === 'login' && x.authenticated));
	ok(open.connection === 'open', 'Baileys logs in and emits connection: open', open);
	// No query of the login was left to Baileys' timeout: the sim
	// answered each (a count, not a clock: a loaded machine is slow).
	const took = open.at - t0;
	const lst = (await sim.ctl('GET', '/admin/status')).body;
	ok(lst.unanswered_queries === 0,
		`every query of the login answered by the sim, none left to the ${QUERY_TIMEOUT} ms query timeout (open after ${took} ms)`, lst);

	const dev = await device();
	ok(dev.prekeys?.count === 812 && dev.prekeys.uploads === 1 && dev.prekeys.first_id === 1 &&
		dev.prekeys.last_id === 812, 'the sim holds the 812 prekeys Baileys uploaded (ids 1-812)', dev.prekeys);
	ok(dev.prekeys?.signed_prekey_verified === true &&
		dev.signed_prekey_id === state.creds.signedPreKey.keyId &&
		dev.signed_prekey_pub === Buffer.from(state.creds.signedPreKey.keyPair.public).toString('hex'),
		"the upload's signed prekey verifies against Baileys' identity", dev);

	// The queries Baileys sends after open (props, blocklist, privacy).
	// count, upload, passive, digest, props, blocklist, privacy: 7.
	const logHas = (re) => re.test(sim.log());
	const conn = await until(60000, async () =>
		(await sim.ctl('GET', '/admin/connections')).body.find((x) => x.id === login?.id && x.answered >= 7));
	await sleep(200);
	const st = (await sim.ctl('GET', '/admin/status')).body;
	ok(st.unanswered_queries === 0 && conn?.unhandled === 0 && !logHas(/unanswered query|unhandled stanza/),
		'the sim answered every query Baileys sent and handled every stanza',
		{ unanswered: st.unanswered_queries, conn, log: sim.log().split('\n').filter((l) => /unanswered|unhandled/.test(l)) });

	// A malformed upload (the signed prekey's signature broken) is refused.
	const skey = state.creds.signedPreKey;
	const be = (v, len) => Buffer.from(Array.from({ length: len }, (_, i) => (v >> (8 * (len - 1 - i))) & 0xff));
	const badSig = Buffer.from(skey.signature);
	badSig[0] ^= 1;
	let refusal;
	try {
		await sock.query({
			tag: 'iq', attrs: { xmlns: 'encrypt', type: 'set', to: '@s.whatsapp.net' },
			content: [
				{ tag: 'registration', attrs: {}, content: be(state.creds.registrationId, 4) },
				{ tag: 'type', attrs: {}, content: Buffer.from([5]) },
				{ tag: 'identity', attrs: {}, content: Buffer.from(state.creds.signedIdentityKey.public) },
				{ tag: 'list', attrs: {}, content: [{ tag: 'key', attrs: {}, content: [
					{ tag: 'id', attrs: {}, content: be(900000, 3) },
					{ tag: 'value', attrs: {}, content: Buffer.alloc(32, 7) }] }] },
				{ tag: 'skey', attrs: {}, content: [
					{ tag: 'id', attrs: {}, content: be(skey.keyId, 3) },
					{ tag: 'value', attrs: {}, content: Buffer.from(skey.keyPair.public) },
					{ tag: 'signature', attrs: {}, content: badSig }] },
			],
		});
	} catch (e) {
		refusal = e;
	}
	const afterBad = await device();
	ok(/signature does not verify/.test(refusal?.message) && afterBad.prekeys.refused_uploads === 1 && afterBad.prekeys.count === 812,
		'an upload whose signed prekey does not verify is refused with an error iq (400), nothing stored',
		{ err: refusal?.message, prekeys: afterBad.prekeys });

	// Hand out keys until 3 are left: the encrypt notification, a top-up.
	const use = await sim.ctl('POST', `/admin/devices/${JID}/use-prekeys`, { n: 809 });
	ok(use.status === 200 && use.body.used === 809 && use.body.left === 3 && use.body.notified === 1,
		'handing out 809 prekeys leaves 3 and sends the encrypt notification', use.body);
	const topped = await until(60000, async () => {
		const d = await device();
		return d.prekeys.count > 3 ? d : null;
	});
	ok(topped && topped.prekeys.uploads === 2 && topped.prekeys.count >= 5 && topped.prekeys.id_conflicts === 0 &&
		topped.prekeys.first_id === 810 && topped.prekeys.last_id > 812,
		`Baileys tops up after the notification (count now ${topped?.prekeys.count}, new ids after 812)`,
		topped?.prekeys);
	ok(/notification sim-\d+ acked \(encrypt\)/.test(sim.log()), 'Baileys acks the encrypt notification');
	const digest = await sim.ctl('GET', '/admin/status');
	ok(digest.body.unanswered_queries === 0, 'still no unanswered query', digest.body);
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
try {
	sock?.end(undefined);
} catch { /* already closed */ }
if (process.env.SIM_DUMP_LOG)
	process.stderr.write(sim.log());
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
await rmTree(authDir);
process.exit(finish());
