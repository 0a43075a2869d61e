// SPDX-License-Identifier: GPL-3.0-or-later
// whatsapp-rust-bridge's NoiseSession (an independent Noise XX initiator
// in Rust) completes a handshake with wachat-sim over a plain WebSocket:
// the certificate payload it decrypts is the sim's chain, the sim reads
// the registration ClientPayload it encrypts, and the pair-device that
// comes back decrypts and decodes.  A login of an unknown device then gets
// failure 401 the same way.  TAP.
import { bail, finish, importPkg, ok, startSim, within } from './lib.mjs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeModules } from './lib.mjs';

const bridge = await importPkg('whatsapp-rust-bridge/dist/index.js');
const { proto } = await importPkg('@whiskeysockets/baileys/WAProto/index.js');
const baileys = await importPkg('@whiskeysockets/baileys/lib/index.js');
const WebSocket = createRequire(path.join(nodeModules, 'x.js'))('ws');

// One connection: resolves with what happened.
async function session(sim, makePayload) {
	const eph = bridge.generateKeyPair();
	const noise = bridge.generateKeyPair();
	const ephPub = eph.pubKey.slice(1);
	const ns = new bridge.NoiseSession(ephPub, bridge.getWAConnHeader());
	const ws = new WebSocket(sim.url, { origin: 'https://web.whatsapp.com' });
	const frames = [];
	let wake;
	ws.on('message', (data) => {
		for (const f of ns.decodeFrame(new Uint8Array(data)))
			frames.push(f);
		if (wake)
			wake();
	});
	const next = () => within(5000, new Promise((resolve) => {
		const take = () => { if (frames.length) { wake = undefined; resolve(frames.shift()); } };
		wake = take;
		take();
	}), 'a frame from the sim');
	await within(5000, new Promise((resolve, reject) => { ws.on('open', resolve); ws.on('error', reject); }), 'WebSocket open');
	const hello = proto.HandshakeMessage.encode({ clientHello: { ephemeral: ephPub } }).finish();
	ws.send(ns.encodeFrameRaw(hello));
	const sh = proto.HandshakeMessage.decode(await next()).serverHello;
	const cert = ns.processHandshakeInit(sh.ephemeral, sh.static, sh.payload, eph.privKey);
	const keyEnc = ns.processHandshakeFinish(noise.pubKey.slice(1), noise.privKey, sh.ephemeral);
	const payloadEnc = ns.encrypt(makePayload(noise));
	ws.send(ns.encodeFrameRaw(proto.HandshakeMessage.encode({ clientFinish: { static: keyEnc, payload: payloadEnc } }).finish()));
	ns.finishInit();
	const node = await next();
	ws.close();
	return { cert: Buffer.from(cert), node, noisePub: Buffer.from(noise.pubKey.slice(1)) };
}

let sim;
try {
	sim = await startSim();
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
try {
	const chain = (await sim.ctl('GET', '/admin/cert-chain')).body.chain;
	const creds = baileys.initAuthCreds();
	const config = { ...baileys.DEFAULT_CONNECTION_CONFIG, browser: baileys.Browsers.ubuntu('Chrome') };
	const reg = await session(sim, () => proto.ClientPayload.encode(baileys.generateRegistrationNode(creds, config)).finish());
	ok(reg.cert.toString('hex') === chain, "NoiseSession decrypts the sim's certificate chain from the ServerHello");
	const refs = (reg.node?.content ?? []).find?.((c) => c.tag === 'pair-device')?.content ?? [];
	ok(reg.node?.tag === 'iq' && reg.node.attrs?.type === 'set' && refs.length === 6 && refs.every((r) => r.tag === 'ref'),
		'after the handshake NoiseSession decrypts and decodes pair-device with 6 refs', reg.node);
	const conns = sim.log();
	ok(/registration from Ubuntu \(version 2\.3000\.\d+, regid \d+, signed prekey 1 verifies\)/.test(conns),
		'the sim decrypted the registration ClientPayload and its signed prekey verifies', conns);

	const login = await session(sim, () => proto.ClientPayload.encode(
		baileys.generateLoginNode('15559990000:4@s.whatsapp.net', config)).finish());
	ok(login.node?.tag === 'failure' && login.node.attrs?.reason === '401',
		'a login of an unknown device through NoiseSession gets failure 401', login.node);
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
process.exit(finish());
