// SPDX-License-Identifier: GPL-3.0-or-later
// Privacy tokens (protocol.md 15.6, issue 16) with an unmodified Baileys
// client on the strict wachat-sim (tests/sim/tokens.c): bob and carol
// take 1:1 messages only with a token.  Bob's token comes to alice in a
// privacy_token notification: Baileys attaches it and bob's phone gets
// the message.  Carol gave alice none: Baileys' message to her is
// refused with ack error 463 and never reaches her phone (the sim is
// strict for Baileys too).  TAP.
import path from 'node:path';
import { bail, finish, importPkg, ok, quietLogger, rmTree, rootPub, sleep, startSim, until, within } from './lib.mjs';

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
const CAROL = '15550000003';
const bobJid = `${BOB}@s.whatsapp.net`;
const carolJid = `${CAROL}@s.whatsapp.net`;
const dir = path.join(sim.tmp, 'auth-alice');
let sock;

const tokens = async () => (await sim.ctl('GET', '/admin/tokens')).body;
const inbox = async (pn) => (await sim.ctl('GET', `/admin/mock-phone/inbox?pn=${pn}`)).body;
const has = (box, id, txt) => (box.inbox ?? []).some((m) => m.id === id && m.text === txt);

try {
	for (const [route, body] of [['/admin/accounts', { pn: ALICE, name: 'alice' }],
		['/admin/contacts', { pn: BOB, lid: '100000000000002', name: 'bob', of: ALICE }],
		['/admin/contacts', { pn: CAROL, lid: '100000000000003', name: 'carol', of: ALICE }],
		['/admin/tokens/require', { pn: BOB }], ['/admin/tokens/require', { pn: CAROL }]]) {
		const r = await sim.ctl('POST', route, body);
		if (r.status !== 200)
			bail(`${route} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
	}
	const { state, saveCreds } = await baileys.useMultiFileAuthState(dir);
	const ev = [];
	const connect = () => {
		sock = makeWASocket({
			waWebSocketUrl: sim.url, auth: state, logger: quietLogger,
			browser: baileys.Browsers.ubuntu('Chrome'), connectTimeoutMs: 10000,
			defaultQueryTimeoutMs: 5000, markOnlineOnConnect: true,
			syncFullHistory: false, shouldSyncHistoryMessage: () => false,
			fireInitQueries: true,
		});
		const me = sock;
		sock.ev.on('creds.update', saveCreds);
		for (const e of ['connection.update', 'messages.update'])
			sock.ev.on(e, (d) => { if (sock === me) ev.push({ e, d }); });
	};
	const wait = (ms, what, pred) => within(ms, (async () => {
		for (;;) {
			const x = ev.find(pred);
			if (x)
				return x;
			await sleep(20);
		}
	})(), what);
	connect();
	const { d } = await wait(60000, 'a QR', (x) => x.e === 'connection.update' && x.d.qr);
	const scan = await sim.ctl('POST', `/admin/mock-phone/scan-qr?pn=${ALICE}`, d.qr);
	await wait(60000, 'the 515 restart', (x) => x.e === 'connection.update' && x.d.connection === 'close');
	state.creds.me.name = 'alice';
	ev.length = 0;
	connect();
	const open = await wait(60000, 'open', (x) => x.e === 'connection.update' &&
		(x.d.connection === 'open' || x.d.connection === 'close'));
	ok(scan.status === 200 && open.d.connection === 'open', 'Baileys (alice) pairs and logs in', open.d);

	// bob's token in a privacy_token notification
	const n = await sim.ctl('POST', '/admin/tokens/notify', { pn: BOB, to: ALICE });
	const acked = await until(60000, () => /notification sim-tok-\d+ acked \(privacy_token\)/.test(sim.log()));
	ok(n.status === 200 && n.body.queued === 1 && acked, "Baileys acks bob's privacy_token notification", n.body);
	const m1 = await sock.sendMessage(bobJid, { text: 'hello bob' });
	const got = await until(60000, async () => has(await inbox(BOB), m1.key.id, 'hello bob'));
	const t1 = await tokens();
	ok(got && !t1.nacked.includes(m1.key.id) && t1.accepted_tctoken >= 1,
		"Baileys' message to bob carries his tctoken: bob's phone reads it", t1);

	// carol: no token at all
	const m2 = await sock.sendMessage(carolJid, { text: 'hello carol' });
	const nacked = await until(60000, async () => (await tokens()).nacked.includes(m2.key.id));
	ok(nacked && /message \S+ to 15550000003@s\.whatsapp\.net: the addressee requires a privacy token and it carries no token: ack error 463/.test(sim.log()),
		"Baileys' message to carol, without a token, gets ack error 463", await tokens());
	const box = await inbox(CAROL);
	ok(!has(box, m2.key.id, 'hello carol') && !/message \S+ \(text\) to 15550000003@s\.whatsapp\.net: [1-9]/.test(sim.log()),
		"... and it is not routed: carol's phone never gets it", box);
	const st = (await sim.ctl('GET', '/admin/status')).body;
	ok(st.tokens.nacks_463 === 1 && st.tokens.notifications === 1, '/admin/status counts one 463 and one notification', st.tokens);
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
await rmTree(dir);
process.exit(finish());
