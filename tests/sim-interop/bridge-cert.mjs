// SPDX-License-Identifier: GPL-3.0-or-later
// whatsapp-rust-bridge's verifySignature (an independent XEdDSA in Rust)
// checks wachat-sim's certificate chain: the intermediate signed by the
// test root, the leaf by the intermediate; and it refuses the chain the
// sim issues from another root, and wrong keys.  TAP.
import { bail, finish, importPkg, ok, rootPub, startSim } from './lib.mjs';

const bridge = await importPkg('whatsapp-rust-bridge/dist/index.js');
const { proto } = await importPkg('@whiskeysockets/baileys/WAProto/index.js');
const hex = (s) => Buffer.from(s, 'hex');

let sim;
try {
	sim = await startSim();
} catch (e) {
	bail(`wachat-sim did not start: ${e.message}`);
}
try {
	const { status, body: c } = await sim.ctl('GET', '/admin/cert-chain');
	ok(status === 200 && c.root_pub === rootPub, 'the sim serves its chain, issued from the test root', c);
	const inter = c.intermediate;
	const leaf = c.leaf;
	ok(bridge.verifySignature(hex(rootPub), hex(inter.details), hex(inter.signature)),
		'verifySignature accepts the intermediate with the test root key');
	ok(bridge.verifySignature(hex(c.intermediate_pub), hex(leaf.details), hex(leaf.signature)),
		'verifySignature accepts the leaf with the intermediate key');
	ok(bridge.verifySignature(Buffer.concat([Buffer.from([5]), hex(rootPub)]), hex(inter.details),
		hex(inter.signature)), 'verifySignature accepts it with the 33-byte (05-prefixed) root key too');

	// The details say what the C client checks (protocol.md 2.4).
	const id = proto.CertChain.NoiseCertificate.Details.decode(hex(inter.details));
	const ld = proto.CertChain.NoiseCertificate.Details.decode(hex(leaf.details));
	const now = Date.now() / 1000;
	ok(id.issuerSerial === 0 && ld.issuerSerial === id.serial, 'issuer serials: intermediate 0, leaf = intermediate serial',
		{ id, ld });
	ok(Buffer.from(id.key).toString('hex') === c.intermediate_pub && Buffer.from(ld.key).toString('hex') === c.static_pub,
		'the intermediate certifies its key and the leaf the Noise static key');
	ok(Number(id.notBefore) <= now && now <= Number(id.notAfter) && Number(ld.notBefore) <= now && now <= Number(ld.notAfter),
		'both certificates are valid now');
	// The whole chain is what was split into parts.
	const whole = proto.CertChain.decode(hex(c.chain));
	ok(Buffer.from(whole.leaf.details).equals(hex(leaf.details)) &&
		Buffer.from(whole.intermediate.signature).equals(hex(inter.signature)), 'the chain bytes hold those parts');

	// Negative checks: WhatsApp's root, and a chain from another root.
	const wa = '142375574d0a587166aae71ebe516437c4a28b73e3695c6ce1f7f9545da8ee6b';
	ok(!bridge.verifySignature(hex(wa), hex(inter.details), hex(inter.signature)),
		"verifySignature refuses the intermediate with WhatsApp's root key");
	ok(!bridge.verifySignature(hex(rootPub), hex(leaf.details), hex(leaf.signature)),
		'verifySignature refuses the leaf with the root key');
	const other = (await sim.ctl('GET', '/admin/cert-chain?fault=other-root')).body;
	ok(!bridge.verifySignature(hex(rootPub), hex(other.intermediate.details), hex(other.intermediate.signature)),
		'verifySignature refuses the chain the sim issues from another root');
	const tampered = hex(inter.details);
	tampered[tampered.length - 1] ^= 1;
	ok(!bridge.verifySignature(hex(rootPub), tampered, hex(inter.signature)),
		'verifySignature refuses tampered intermediate details');
} catch (e) {
	ok(false, `no exception: ${e.stack}`);
}
const code = await sim.stop();
ok(code === 0, `wachat-sim exits cleanly (${code})`, sim.stderr());
process.exit(finish());
