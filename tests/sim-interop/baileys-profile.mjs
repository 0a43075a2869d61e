// SPDX-License-Identifier: GPL-3.0-or-later
// Profiles and the blocklist (issue 20) with an unmodified Baileys client
// on wachat-sim (tests/sim/profile.c), the independent check of the
// answers wachat reads: Baileys' profilePictureUrl gets bob's preview
// picture's URL on the sim's media host, and that URL serves a JPEG;
// an unknown JID has no picture (404); fetchStatus reads bob's about text
// ("Hi, I am bob") and when it was set from usync <status/>;
// fetchBlocklist reads the empty list, updateBlockStatus blocks bob (by
// his LID, with pn_jid, as Baileys does) and the sim's list and
// fetchBlocklist then hold him, and unblocking empties both.  Needs
// SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS.  TAP.
import path from 'node:path';
import { bail, endScenario, importPkg, linkBaileys, ok, rootPub, startSim } from './lib.mjs';

const cert = process.env.SIM_TLS_CERT;
const key = process.env.SIM_TLS_KEY;
if (!cert || !key || !process.env.NODE_EXTRA_CA_CERTS)
	bail('set SIM_TLS_CERT, SIM_TLS_KEY and NODE_EXTRA_CA_CERTS');
const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const defaults = await importPkg('@whiskeysockets/baileys/lib/Defaults/index.js');
const makeWASocket = baileys.default ?? baileys.makeWASocket;
defaults.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(rootPub, 'hex');

let sim;
try {
	sim = await startSim(['--tls-cert', cert, '--tls-key', key, '--media-port', '0']);
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
const ALICE = '15550000001';
const BOB = '15550000002';
const BOB_LID = '100000000000002';
const bobJid = `${BOB}@s.whatsapp.net`;
const dir = path.join(sim.tmp, 'auth-alice');
let sock;

const blocked = async () => ((await sim.ctl('GET', '/admin/accounts')).body
	.find((a) => a.pn === ALICE) ?? {}).blocked;

try {
	for (const [route, body] of [['/admin/accounts', { pn: ALICE, name: 'alice' }],
		['/admin/contacts', { pn: BOB, lid: BOB_LID, name: 'bob', of: ALICE }]]) {
		const r = await sim.ctl('POST', route, body);
		if (r.status !== 200)
			bail(`${route} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
	}
	const linked = await linkBaileys(sim, baileys, makeWASocket, ALICE, dir,
	    sim.url.replace('ws://', 'wss://'), { markOnlineOnConnect: false });
	const { scan, open } = linked;
	sock = linked.sock;
	ok(scan.status === 200 && open.connection === 'open', 'Baileys (alice) pairs and logs in', open);

	const url = await sock.profilePictureUrl(bobJid, 'preview');
	const media = (await sim.ctl('GET', '/admin/status')).body.history?.media_port;
	ok(typeof url === 'string' && url.startsWith(`https://127.0.0.1:${media}/v/`),
		"profilePictureUrl: bob's preview on the sim's media host", { url, media });
	const res = await fetch(url);
	const jpg = Buffer.from(await res.arrayBuffer());
	ok(res.status === 200 && jpg.length > 100 && jpg[0] === 0xff && jpg[1] === 0xd8 && jpg[2] === 0xff,
		'... which serves a JPEG', { status: res.status, bytes: jpg.length });
	let err;
	try {
		await sock.profilePictureUrl('15559999999@s.whatsapp.net', 'preview');
	} catch (e) {
		err = e;
	}
	ok(err?.output?.statusCode === 404 || err?.data === 404 || /404|item-not-found/.test(String(err?.message)),
		'an unknown JID has no picture: error 404', String(err));

	const st = await sock.fetchStatus(bobJid);
	ok(st?.[0]?.status?.status === 'Hi, I am bob' && st[0].status.setAt?.getTime() === 1733000000000,
		"fetchStatus: bob's about text and when it was set (usync <status/>)", st);

	const l0 = await sock.fetchBlocklist();
	ok(Array.isArray(l0) && l0.length === 0, 'fetchBlocklist: empty at first', l0);
	await sock.updateBlockStatus(bobJid, 'block');
	const b1 = await blocked();
	const l1 = await sock.fetchBlocklist();
	ok(JSON.stringify(b1) === JSON.stringify([`${BOB_LID}@lid`]) && l1.length === 1 &&
		l1[0] === `${BOB_LID}@lid`, "updateBlockStatus block: the sim's list and fetchBlocklist hold bob's LID",
		{ sim: b1, baileys: l1 });
	ok(/blocklist: blocked 100000000000002@lid/.test(sim.log()), '... and the sim logged the set', '');
	await sock.updateBlockStatus(bobJid, 'unblock');
	const b2 = await blocked();
	const l2 = await sock.fetchBlocklist();
	ok(Array.isArray(b2) && b2.length === 0 && l2.length === 0, 'unblock: both lists empty', { sim: b2, baileys: l2 });
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
await endScenario(sim, sock, dir);
