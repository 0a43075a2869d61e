#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/fuzz/seeds-baileys.mjs -- writes the seed corpora of the fuzz
// targets wa-cert, wa-pair, wa-usync and wa-engver from encodings made by
// Baileys (its WAProto messages, its binary-node encoder and its curve
// signatures), with the fixed keys the targets use, plus a few mutated
// edge cases.  Run from the top of the tree when the keys, a target's
// input layout or Baileys change:
//   node tests/fuzz/seeds-baileys.mjs tests/fuzz/corpus
// (needs tests/interop/node_modules: sh tools/setup.sh).  The Signal
// record seeds come from libsignal-protocol-c itself: see
// tests/fuzz/fuzz-wa-sigrec.c.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NM = path.join(HERE, '../interop/node_modules');
const B = await import(pathToFileURL(path.join(NM, '@whiskeysockets/baileys/lib/index.js')));
const curve = await import(pathToFileURL(path.join(NM, 'libsignal/src/curve.js')));
const { proto, encodeBinaryNode } = B;
const OUT = process.argv[2] || path.join(HERE, 'corpus');

// The fixed keys, made as the C targets make them: SHA-256 of a label,
// clamped as X25519 does.
const sha = (s) => crypto.createHash('sha256').update(s).digest();
const clamp = (k) => { k = Buffer.from(k); k[0] &= 248; k[31] &= 127; k[31] |= 64; return k; };
const priv = (label) => clamp(sha(label));
const pub = (p) => Buffer.from(curve.getPublicFromPrivateKey(p)).subarray(1);
const sign = (p, msg) => Buffer.from(curve.calculateSignature(p, msg));
// The wachat-sim test root (tests/sim/root-key.txt): the sim's chains.
const SIM_ROOT = Buffer.from('b0bb18a2505ba262956ed6e04b7e277da77b425fe715ba576b4f9244a4743b5e', 'hex');

function write(target, name, mode, bytes) {
	const dir = path.join(OUT, target);
	fs.mkdirSync(dir, { recursive: true });
	const head = mode === null ? Buffer.alloc(0) : Buffer.from([mode]);
	fs.writeFileSync(path.join(dir, name), Buffer.concat([head, Buffer.from(bytes)]));
}

// ---- wa-cert: the server's CertChain (protocol.md 2.4) -----------------
function certs() {
	const inter = priv('fuzz intermediate'), leafKey = pub(priv('fuzz server static'));
	const NB = 1700000000, NA = 1800000000;
	const details = (o) => Buffer.from(proto.CertChain.NoiseCertificate.Details.encode(o).finish());
	const chain = (idet, isig, ldet, lsig) => Buffer.from(proto.CertChain.encode({
		intermediate: { details: idet, signature: isig },
		leaf: { details: ldet, signature: lsig } }).finish());
	const idOk = { serial: 1, issuerSerial: 0, key: pub(inter), notBefore: NB, notAfter: NA };
	const lOk = { serial: 2, issuerSerial: 1, key: leafKey, notBefore: NB, notAfter: NA };
	const make = (name, io, lo, o = {}) => {
		const idet = details(io), ldet = details(lo);
		const isig = o.isig || sign(o.root || SIM_ROOT, idet);
		const lsig = o.lsig || sign(o.inter || inter, ldet);
		write('wa-cert', name, 0, chain(idet, isig, ldet, lsig));
		// Mode 1: the two Details, which the target signs itself.
		const len = Buffer.from([idet.length >> 8, idet.length & 255]);
		write('wa-cert', name + '-details', 1, Buffer.concat([len, idet, ldet]));
	};
	make('sim-chain', idOk, lOk);
	make('expired', { ...idOk, notAfter: 1710000000 }, lOk);
	make('not-yet', idOk, { ...lOk, notBefore: 1760000000 });
	make('issuer-serial', idOk, { ...lOk, issuerSerial: 7 });
	make('inter-issuer', { ...idOk, issuerSerial: 3 }, lOk);
	make('leaf-key', idOk, { ...lOk, key: pub(priv('another key')) });
	make('short-key', { ...idOk, key: pub(inter).subarray(0, 31) }, lOk);
	make('no-serials', { key: pub(inter), notAfter: NA }, { key: leafKey, notAfter: NA });
	make('other-root', idOk, lOk, { root: priv('another root') });
	make('no-times', { serial: 1, key: pub(inter) }, { serial: 2, issuerSerial: 1, key: leafKey });
	const idet = details(idOk), ldet = details(lOk);
	write('wa-cert', 'short-sig', 0, chain(idet, sign(SIM_ROOT, idet).subarray(0, 63), ldet, sign(inter, ldet)));
	write('wa-cert', 'no-leaf', 0, Buffer.from(proto.CertChain.encode({
		intermediate: { details: idet, signature: sign(SIM_ROOT, idet) } }).finish()));
	write('wa-cert', 'empty', 0, Buffer.alloc(0));
	write('wa-cert', 'garbage-details', 0, chain(Buffer.from([0x0a, 0xff]), sign(SIM_ROOT, Buffer.from([0x0a, 0xff])), ldet, sign(inter, ldet)));
}

// ---- wa-pair: pair-success's ADV identity (6.4), the code wrap (6.7) ---
function pairing() {
	const advSecret = sha('fuzz adv secret');
	const idPub = pub(priv('fuzz identity'));
	const acct = priv('fuzz account');
	const hmac = (msg) => crypto.createHmac('sha256', advSecret).update(msg).digest();
	const dev = (o) => Buffer.from(proto.ADVDeviceIdentity.encode(o).finish());
	const signed = (details, o = {}) => {
		const pre = Buffer.from(o.hosted ? [6, 5] : [6, 0]);
		const sig = sign(acct, Buffer.concat([pre, details, idPub]));
		return Buffer.from(proto.ADVSignedDeviceIdentity.encode({ details,
			accountSignatureKey: pub(acct), accountSignature: o.sig || sig }).finish());
	};
	const wrap = (inner, o = {}) => Buffer.from(proto.ADVSignedDeviceIdentityHMAC.encode({
		details: inner, hmac: o.hmac || hmac(Buffer.concat([o.hosted ? Buffer.from([6, 5]) : Buffer.alloc(0), inner])),
		...(o.hosted ? { accountType: 1 } : {}) }).finish());
	const cases = {
		'e2ee': [dev({ rawId: 1234, timestamp: 1750000000, keyIndex: 3 }), {}],
		'hosted': [dev({ rawId: 77, timestamp: 1750000000, keyIndex: 1, accountType: 1, deviceType: 1 }), { hosted: true }],
		'no-key-index': [dev({ rawId: 1, timestamp: 1 }), {}],
		'empty-details': [Buffer.alloc(0), {}],
	};
	for (const [name, [d, o]] of Object.entries(cases)) {
		const s = signed(d, o);
		write('wa-pair', name, 0, wrap(s, o));	// as pair-success carries it
		write('wa-pair', name + '-signed', 1, Buffer.concat([Buffer.from([o.hosted ? 1 : 0]), s]));
		write('wa-pair', name + '-device', 2, Buffer.concat([Buffer.from([o.hosted ? 1 : 0]), d]));
	}
	const d = dev({ rawId: 1234, timestamp: 1750000000, keyIndex: 3 });
	write('wa-pair', 'bad-hmac', 0, wrap(signed(d), { hmac: Buffer.alloc(32, 7) }));
	write('wa-pair', 'bad-sig', 0, wrap(signed(d, { sig: Buffer.alloc(64, 1) })));
	write('wa-pair', 'short-hmac', 0, Buffer.from(proto.ADVSignedDeviceIdentityHMAC.encode({ details: signed(d), hmac: Buffer.alloc(31) }).finish()));
	write('wa-pair', 'hmac-only', 0, Buffer.from(proto.ADVSignedDeviceIdentityHMAC.encode({ hmac: Buffer.alloc(32) }).finish()));
	// The phone's wrapped ephemeral key of link_code_companion_reg, as
	// Baileys' pairing-code key derivation makes it: PBKDF2-SHA256(code,
	// salt, 2 << 16) then AES-256-CTR; then the primary's identity key.
	const code = 'FZZA1234';
	const wrapEph = (eph, salt, iv) => {
		const k = crypto.pbkdf2Sync(code, salt, 2 << 16, 32, 'sha256');
		const c = crypto.createCipheriv('aes-256-ctr', k, iv);
		return Buffer.concat([salt, iv, c.update(eph), c.final()]);
	};
	const salt = sha('fuzz code salt'), iv = sha('fuzz code iv').subarray(0, 16);
	write('wa-pair', 'code-primary', 4, Buffer.concat([wrapEph(pub(priv('fuzz primary ephemeral')), salt, iv), pub(priv('fuzz primary identity'))]));
	write('wa-pair', 'code-low-order', 4, Buffer.concat([wrapEph(Buffer.alloc(32), salt, iv), pub(priv('fuzz primary identity'))]));
	write('wa-pair', 'finish', 3, Buffer.concat([pub(priv('fuzz primary ephemeral')), pub(priv('fuzz primary identity'))]));
	write('wa-pair', 'finish-low-order', 3, Buffer.concat([Buffer.alloc(32), pub(priv('fuzz primary identity'))]));
	write('wa-pair', 'code-low-order-identity', 4, Buffer.concat([wrapEph(pub(priv('fuzz primary ephemeral')), salt, iv), Buffer.from([1].concat(Array(31).fill(0)))]));
}

// ---- wa-usync: usync device lists (8.2) and prekey bundles (8.1) -------
function usync() {
	const node = (tag, attrs = {}, content) => ({ tag, attrs, content });
	const enc = (n) => Buffer.from(encodeBinaryNode(n));
	const identity = { private: priv('fuzz bob identity'), public: pub(priv('fuzz bob identity')) };
	const spkPriv = priv('fuzz bob signed prekey');
	const spkSig = sign(identity.private, Buffer.concat([Buffer.from([5]), pub(spkPriv)]));
	const be = (v, n) => { const b = Buffer.alloc(n); for (let i = n - 1; i >= 0; i--) { b[i] = v & 255; v >>>= 8; } return b; };
	const user = (jid, devs, lid) => node('user', { jid }, [
		node('devices', {}, [
			node('device-list', {}, devs.map((d) => node('device', d === 0 ? { id: '0' } :
				typeof d === 'object' ? d : { id: String(d), 'key-index': String(d) }))),
			node('key-index-list', { ts: '1750000000' }, Buffer.from('0a0208011001', 'hex')),
		]),
		...(lid ? [node('lid', { val: lid })] : []),
	]);
	const usyncIq = (users, type = 'result') => node('iq', { from: 's.whatsapp.net', id: '1234.5-6', type }, [
		node('usync', { sid: '1234.5-6', mode: 'query', last: 'true', index: '0', context: 'message' }, [
			node('result', {}, [node('devices'), node('lid')]),
			node('list', {}, users),
		])]);
	write('wa-usync', 'devices-pn', null, enc(usyncIq([user('15550001111@s.whatsapp.net', [0, 2, 11], '99887766554433@lid')])));
	write('wa-usync', 'devices-two', null, enc(usyncIq([
		user('15550001111@s.whatsapp.net', [0, 1], '99887766554433@lid'),
		user('15550002222@s.whatsapp.net', [0, { id: '5', 'key-index': '2', is_hosted: 'true' }, { id: '7' }])])));
	write('wa-usync', 'devices-lid', null, enc(usyncIq([user('99887766554433@lid', [0, 3])])));
	write('wa-usync', 'devices-error', null, enc(usyncIq([node('user', { jid: '15550003333@s.whatsapp.net' }, [
		node('devices', {}, [node('error', { code: '404', text: 'item-not-found' })])])])));
	write('wa-usync', 'devices-bad-id', null, enc(usyncIq([user('15550001111@s.whatsapp.net', [{ id: '256' }, { id: '-1' }])])));
	write('wa-usync', 'devices-not-result', null, enc(usyncIq([user('15550001111@s.whatsapp.net', [0])], 'error')));
	const keys = (withPrekey, prekeyId) => [
		node('type', {}, Buffer.from([5])),
		node('identity', {}, identity.public),
		node('skey', {}, [node('id', {}, be(1, 3)), node('value', {}, pub(spkPriv)), node('signature', {}, spkSig)]),
		...(withPrekey ? [node('key', {}, [node('id', {}, be(prekeyId, 3)), node('value', {}, pub(priv('fuzz bob prekey ' + prekeyId)))])] : []),
	];
	const bundleUser = (jid, withPrekey, id) => node('user', { jid }, [node('registration', {}, be(4242, 4)), ...keys(withPrekey, id)]);
	const keysIq = (users) => node('iq', { from: 's.whatsapp.net', id: '1234.5-7', type: 'result' }, [node('list', {}, users)]);
	write('wa-usync', 'bundle', null, enc(keysIq([bundleUser('15550001111@s.whatsapp.net', true, 17)])));
	write('wa-usync', 'bundle-devices', null, enc(keysIq([
		bundleUser('15550001111:2@s.whatsapp.net', true, 18),
		bundleUser('99887766554433:3@lid', false),
		node('user', { jid: '15550002222@s.whatsapp.net' }, [node('error', { code: '406', text: 'not-acceptable' })])])));
	write('wa-usync', 'bundle-in-keys', null, enc(keysIq([node('user', { jid: '15550001111@s.whatsapp.net' }, [
		node('registration', {}, be(4242, 4)), node('keys', {}, keys(true, 19))])])));
	write('wa-usync', 'bundle-short-identity', null, enc(keysIq([node('user', { jid: '15550001111@s.whatsapp.net' }, [
		node('registration', {}, be(1, 4)), node('identity', {}, Buffer.alloc(31))])])));
	// A retry receipt's <keys> (9.6), read with wa_usync_bundle_of().
	write('wa-usync', 'retry-keys', null, enc(node('receipt', { id: 'ABCDEF', from: '15550001111@s.whatsapp.net', type: 'retry' }, [
		node('retry', { count: '1', id: 'ABCDEF', t: '1750000000', v: '1' }),
		node('registration', {}, be(4242, 4)),
		node('keys', {}, keys(true, 20))])));
}

// ---- wa-engver: the sw.js page of the version look-up (3.3) ------------
function engver() {
	const page = (rev) => '/* wachat-sim: the current WhatsApp Web version */\n' +
		'self.__swData=JSON.parse(/*BTDS*/"{\\"dynamic_data\\":{\\"SiteData\\":{\\"server_revision\\":' + rev +
		',\\"client_revision\\":' + rev + '}}}");\nvar config={"client_revision":' + rev + ',"version":"2.3000.' + rev + '"};\n';
	const cases = {
		'sim-page': page(1023456789),
		'escaped': 'x={\\"client_revision\\":1026131876,\\"hsite\\":1}',
		'plain-blanks': '{"client_revision": \t\n 42}',
		'too-big': '{"client_revision":4294967296}',
		'max': '{"client_revision":4294967295}',
		'long-digits': '{"client_revision":' + '9'.repeat(40) + '}',
		'no-digits': '{"client_revision":"x"} {"client_revision":7}',
		'no-quote': 'client_revision":5 "client_revision:6',
		'truncated': '{"client_revision\\',
		'none': '<html>no version here</html>',
	};
	for (const [name, text] of Object.entries(cases))
		write('wa-engver', name, null, Buffer.from(text));
}

certs();
pairing();
usync();
engver();
