// SPDX-License-Identifier: GPL-3.0-or-later
// An unmodified Baileys client and the offline backlog of a strict
// wachat-sim (issue 16, point 4; protocol.md 7.2, 11.6): alice's
// companion is away while bob's phone sends her 150 texts.  At her next
// login the sim sends <ib><offline_preview/> and a primer of 5; Baileys
// answers with its one <ib><offline_batch count="100"/> (socket.ts) and
// gets 100 more; asking for no more, it has the rest held back (kept
// queued) and the backlog ended after the sim's hold.  At the login
// after that the same again brings the last 45: every text arrives once,
// in two logins of batches.  Also: Baileys' unified_session after login,
// and the name its DeviceProps give it on the phone.  TAP.
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, rootPub, sleep, startSim, until, within } from './lib.mjs';

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
const N = 150;
const BATCH = 100;	// Baileys' one request (socket.ts)
const PRIMER = 5;	// the sim's, unasked (tests/sim/offline.c)

const dir = path.join(sim.tmp, 'auth-alice');
const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
const c = { ev: [] };
function connect() {
	c.sock = makeWASocket({
		waWebSocketUrl: sim.url,
		auth: state,
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
	sock.ev.on('creds.update', saveCreds);
	for (const e of ['connection.update', 'messages.upsert'])
		sock.ev.on(e, (d) => { if (c.sock === sock) c.ev.push({ e, d }); });
}
const wait = (ms, what, pred) => within(ms, (async () => {
	for (;;) {
		const x = c.ev.find(pred);
		if (x)
			return x;
		await sleep(20);
	}
})(), what);
const opened = async () => (await wait(60000, 'open', (x) => x.e === 'connection.update' &&
	(x.d.connection === 'open' || x.d.connection === 'close'))).d.connection === 'open';
const status = async () => (await sim.ctl('GET', '/admin/status')).body;
const conns = async () => (await sim.ctl('GET', '/admin/connections')).body;
const routes = async () => (await sim.ctl('GET', '/admin/messages')).body;
const texts = new Set();
const seen = () => {
	for (const x of c.ev.filter((y) => y.e === 'messages.upsert'))
		for (const m of x.d.messages) {
			const t = m.message?.conversation ?? m.message?.extendedTextMessage?.text;
			if (t?.startsWith('backlog '))
				texts.add(t);
		}
	return texts.size;
};
async function away() {
	c.sock.end(undefined);
	return until(60000, async () => !(await conns()).some((x) => x.jid === `${ALICE}:1@s.whatsapp.net`));
}
const toAlice = (x) => x.kind === 'message' && (x.to === `${ALICE}:1@s.whatsapp.net` || x.to.endsWith(':1@lid'));

try {
	for (const [pn, name] of [[ALICE, 'alice'], [BOB, 'bob']]) {
		const r = await sim.ctl('POST', '/admin/accounts', { pn, name });
		if (r.status !== 200)
			bail(`cannot create account ${pn}: ${JSON.stringify(r.body)}`);
	}
	connect();
	const { d } = await wait(60000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ALICE}`, d.qr);
	await wait(60000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	state.creds.me.name = 'alice';
	c.ev = [];
	connect();
	ok(scan.status === 200 && await opened(), 'Baileys pairs and logs in');
	const s0 = await until(30000, async () => {
		const s = await status();
		return s.unified_session_ids?.some((u) => u.after === 'login') ? s : null;
	});
	// (The one Baileys sends after pair-device-sign comes after the sim's
	// 515 and close: not read.)
	ok(s0?.unified_session_ids?.some((u) => u.after === 'login' && u.plausible),
		"the sim counts Baileys' unified_session after login, its id within 7 days in ms", s0?.unified_session_ids);
	const rp = s0?.registration_props?.at(-1);
	ok(rp?.os === 'Ubuntu' && rp.platform_type === 1 && rp.linked_devices_name === 'Google Chrome (Ubuntu)',
		"Browsers.ubuntu('Chrome'): os Ubuntu, CHROME; the phone lists it as \"Google Chrome (Ubuntu)\"", rp);

	ok(await away(), 'alice goes away');
	for (let i = 1; i <= N; i++) {
		const r = await sim.ctl('POST', '/admin/mock-phone/send', { from_pn: BOB, to: aliceJid, text: `backlog ${i}` });
		if (r.status !== 200)
			bail(`phone-send ${i}: ${JSON.stringify(r.body)}`);
	}
	ok((await routes()).filter((x) => toAlice(x) && !x.acked).length === N, `the sim queues ${N} texts for alice:1`);

	// Login 2: the primer and Baileys' one batch.
	c.ev = [];
	connect();
	ok(await opened(), 'alice logs in again');
	const c2 = await until(60000, async () => (await conns()).find((x) => x.jid === `${ALICE}:1@s.whatsapp.net` && x.offline_done));
	ok(c2 && c2.offline_batches === 1 && c2.offline_sent === PRIMER + BATCH && c2.offline_held === N - PRIMER - BATCH,
		`one offline_batch count=${BATCH}: ${PRIMER + BATCH} sent, the other ${N - PRIMER - BATCH} held back`, c2);
	const got2 = await until(60000, async () => seen() >= PRIMER + BATCH && seen());
	await sleep(500);
	ok(got2 === PRIMER + BATCH && seen() === PRIMER + BATCH, `Baileys gets ${PRIMER + BATCH} of the ${N} at this login`, seen());
	const acked2 = await until(60000, async () => (await routes()).filter((x) => toAlice(x) && x.acked).length >= PRIMER + BATCH);
	ok(acked2, 'and acks them; the rest stays queued');

	// Login 3: the rest.
	ok(await away(), 'alice goes away again');
	c.ev = [];
	connect();
	ok(await opened(), 'alice logs in a third time');
	const c3 = await until(60000, async () => (await conns()).find((x) => x.jid === `${ALICE}:1@s.whatsapp.net` && x.offline_done));
	ok(c3 && c3.offline_batches === 1 && c3.offline_sent === N - PRIMER - BATCH && c3.offline_held === 0,
		`the last ${N - PRIMER - BATCH} come in the primer and the next batch, none held`, c3);
	const all = await until(60000, async () => seen() === N);
	ok(all, `every one of the ${N} texts has arrived, once`, seen());
	const acked3 = await until(60000, async () => (await routes()).filter((x) => toAlice(x) && x.acked).length === N);
	ok(acked3, 'all acked');
	const s3 = await status();
	ok(s3.offline_batches === 2 && s3.offline_held === N - PRIMER - BATCH && s3.attempts.logins === 3,
		'the sim counts 2 batch requests, 3 logins, and the 45 once held back', s3);
	c.sock.end(undefined);
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
if (process.env.SIM_DUMP_LOG)
	process.stderr.write(sim.log());
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
process.exit(finish());
