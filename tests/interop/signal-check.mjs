#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Signal 1:1 sessions across three implementations (TAP): wachat
// (libsignal-protocol-c over its SQLite store, driven through
// $WA_SIGNAL_TOOL, tests/interop/wa-signal-tool.c), whatsapp-rust-bridge
// (whatsapp-rust's Signal code compiled to WASM: SessionBuilder,
// SessionCipher) and Baileys' libsignal (JS).  For each peer:
//   1. wachat builds a session from the peer's prekey bundle
//      (wa_signal_process_bundle) and sends a pkmsg, then a second message
//      (still a pkmsg: the peer has not answered); the peer decrypts both to
//      the bytes sent.
//   2. The peer answers with a msg; wachat decrypts it; wachat's next
//      message is then a msg, which the peer decrypts.
//   3. The reverse: the peer builds a session from wachat's bundle and sends
//      a pkmsg; wachat decrypts it, answers (msg) and the peer decrypts;
//      the peer's next msg decrypts at wachat.
// The plaintexts are padded Message protobufs (conversation, 9.1 and 9.3)
// and random bytes.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Bridge = await import('whatsapp-rust-bridge');
const libsignal = require('libsignal');

const TOOL = process.env.WA_SIGNAL_TOOL || './tests/interop/wa-signal-tool';
const WACHAT_USER = '15550000001';

// TAP goes to stdout; libsignal (JS) logs session changes with console.*
// (stdout for info and log): all of that to stderr.
const tap = (line) => process.stdout.write(line + '\n');
for (const k of ['log', 'info', 'warn', 'error', 'debug']) console[k] = (...a) => process.stderr.write(a.join(' ') + '\n');

let n = 0;
let failed = 0;
const ok = (cond, what, diag) => {
  n++;
  if (cond) tap(`ok ${n} - ${what}`);
  else {
    failed++;
    tap(`not ok ${n} - ${what}`);
    if (diag) tap(`# ${String(diag).split('\n').join('\n# ')}`);
  }
};
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Buffer.from(s, 'hex');
const same = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

// A Message{conversation} padded as 9.3 (1..16 bytes of value k).
function paddedText(text) {
  const t = Buffer.from(text, 'utf8');
  if (t.length > 127) throw new Error('short texts only');
  const pb = Buffer.concat([Buffer.from([0x0a, t.length]), t]);
  const k = 1 + crypto.randomInt(16);
  return Buffer.concat([pb, Buffer.alloc(k, k)]);
}

// ---- the C side: one wa-signal-tool process, one line per command ----

class Tool {
  constructor() {
    this.p = spawn(TOOL, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.rl = createInterface({ input: this.p.stdout });
    this.waiting = [];
    this.lines = [];
    this.rl.on('line', (l) => {
      const w = this.waiting.shift();
      if (w) w(l);
      else this.lines.push(l);
    });
    this.p.on('error', (e) => {
      tap(`Bail out! cannot run ${TOOL}: ${e.message}`);
      process.exit(1);
    });
  }
  next() {
    if (this.lines.length) return Promise.resolve(this.lines.shift());
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  async cmd(line) {
    this.p.stdin.write(line + '\n');
    return this.next();
  }
  async bundle() {
    const f = (await this.next()).split(' ');
    if (f[0] !== 'bundle' || f.length !== 8) throw new Error(`no bundle from the tool: ${f.join(' ')}`);
    return {
      registrationId: Number(f[1]), identityKey: Buffer.concat([Buffer.from([5]), unhex(f[2])]),
      signedPreKey: { keyId: Number(f[3]), publicKey: Buffer.concat([Buffer.from([5]), unhex(f[4])]), signature: unhex(f[5]) },
      preKey: { keyId: Number(f[6]), publicKey: Buffer.concat([Buffer.from([5]), unhex(f[7])]) },
    };
  }
  close() {
    this.p.stdin.end('quit\n');
    return new Promise((resolve) => this.p.on('close', resolve));
  }
}

// ---- the peers, each an in-memory store ----

function bridgePeer() {
  const identity = Bridge.generateIdentityKeyPair();
  const registrationId = Bridge.generateRegistrationId();
  const signed = Bridge.generateSignedPreKey(identity, 1);
  const pre = Bridge.generatePreKey(31);
  const sessions = new Map();
  const prekeys = new Map([[pre.keyId, pre.keyPair]]);
  const storage = {
    loadSession: (a) => sessions.get(a),
    storeSession: (a, rec) => { sessions.set(a, rec.serialize()); rec.free(); },
    getOurIdentity: () => identity,
    getOurRegistrationId: () => registrationId,
    isTrustedIdentity: () => true,
    loadPreKey: (id) => prekeys.get(id),
    removePreKey: (id) => { prekeys.delete(id); },
    loadSignedPreKey: (id) => (id === signed.keyId ? signed : undefined),
    loadSenderKey: () => undefined,
    storeSenderKey: () => {},
  };
  const bundle = {
    registrationId, identityKey: identity.pubKey,
    signedPreKey: { keyId: signed.keyId, publicKey: signed.keyPair.pubKey, signature: signed.signature },
    preKey: { keyId: pre.keyId, publicKey: pre.keyPair.pubKey },
  };
  const addr = () => new Bridge.ProtocolAddress(WACHAT_USER, 0);
  return {
    name: 'whatsapp-rust-bridge',
    user: '15550000002',
    msgType: 2, // SessionCipher.encrypt's type of a SignalMessage
    bundle,
    prekeyLeft: () => prekeys.has(pre.keyId),
    async process(b) {
      await new Bridge.SessionBuilder(storage, addr()).processPreKeyBundle(b);
    },
    async encrypt(p) {
      const r = await new Bridge.SessionCipher(storage, addr()).encrypt(p);
      return { type: r.type, body: Buffer.from(r.body) };
    },
    async decrypt(type, c) {
      const cipher = new Bridge.SessionCipher(storage, addr());
      return Buffer.from(type === 'pkmsg' ? await cipher.decryptPreKeyWhisperMessage(c) : await cipher.decryptWhisperMessage(c));
    },
  };
}

function libsignalPeer() {
  const identity = libsignal.keyhelper.generateIdentityKeyPair();
  const registrationId = libsignal.keyhelper.generateRegistrationId();
  const signed = libsignal.keyhelper.generateSignedPreKey(identity, 1);
  const pre = libsignal.keyhelper.generatePreKey(32);
  const sessions = new Map();
  const prekeys = new Map([[pre.keyId, pre.keyPair]]);
  const storage = {
    loadSession: (a) => sessions.get(a),
    storeSession: (a, rec) => { sessions.set(a, rec); },
    getOurIdentity: () => identity,
    getOurRegistrationId: () => registrationId,
    isTrustedIdentity: () => true,
    loadPreKey: (id) => prekeys.get(id),
    removePreKey: (id) => { prekeys.delete(id); },
    loadSignedPreKey: (id) => (id === signed.keyId ? signed.keyPair : undefined),
  };
  const bundle = {
    registrationId, identityKey: identity.pubKey,
    signedPreKey: { keyId: signed.keyId, publicKey: signed.keyPair.pubKey, signature: signed.signature },
    preKey: { keyId: pre.keyId, publicKey: pre.keyPair.pubKey },
  };
  const addr = () => new libsignal.ProtocolAddress(WACHAT_USER, 0);
  return {
    name: "Baileys' libsignal",
    user: '15550000003',
    msgType: 1, // libsignal-node calls a WhisperMessage type 1 (Baileys maps 3 to pkmsg, the rest to msg)
    bundle,
    prekeyLeft: () => prekeys.has(pre.keyId),
    async process(b) {
      await new libsignal.SessionBuilder(storage, addr()).initOutgoing(b);
    },
    async encrypt(p) {
      const r = await new libsignal.SessionCipher(storage, addr()).encrypt(Buffer.from(p));
      return { type: r.type, body: Buffer.from(r.body, 'binary') };
    },
    async decrypt(type, c) {
      const cipher = new libsignal.SessionCipher(storage, addr());
      return Buffer.from(type === 'pkmsg' ? await cipher.decryptPreKeyWhisperMessage(c) : await cipher.decryptWhisperMessage(c));
    },
  };
}

const bundleLine = (jid, b) => ['process', jid, b.registrationId, hex(b.identityKey), b.signedPreKey.keyId,
  hex(b.signedPreKey.publicKey), hex(b.signedPreKey.signature), b.preKey.keyId, hex(b.preKey.publicKey)].join(' ');

async function attempt(what, fn) {
  try {
    return await fn();
  } catch (e) {
    ok(false, what, e && e.stack ? e.stack : e);
    return undefined;
  }
}

// wachat -> peer: the peer's bundle, pkmsg x2, the peer's msg, our msg.
async function forward(peer) {
  const tool = new Tool();
  await tool.bundle();
  const jid = `${peer.user}@s.whatsapp.net`;
  const r = await tool.cmd(bundleLine(jid, peer.bundle));
  ok(r === 'ok', `${peer.name}: wachat builds a session from its prekey bundle`, r);
  if (r !== 'ok') return tool.close();

  const p1 = paddedText('hello from wachat \u00e9\u{1F600}');
  let [type, body] = (await tool.cmd(`encrypt ${jid} ${hex(p1)}`)).split(' ');
  ok(type === 'pkmsg', `${peer.name}: wachat's first message is a pkmsg`, type);
  let d = await attempt(`${peer.name}: decrypts wachat's pkmsg`, () => peer.decrypt('pkmsg', unhex(body)));
  if (d) ok(same(d, p1), `${peer.name}: decrypts wachat's pkmsg to the padded Message sent`, `${hex(d)} != ${hex(p1)}`);
  ok(!peer.prekeyLeft(), `${peer.name}: the one-time prekey named by the pkmsg is consumed`);

  const p2 = crypto.randomBytes(200);
  [type, body] = (await tool.cmd(`encrypt ${jid} ${hex(p2)}`)).split(' ');
  ok(type === 'pkmsg', `${peer.name}: wachat's second message, before an answer, is still a pkmsg`, type);
  d = await attempt(`${peer.name}: decrypts wachat's second pkmsg`, () => peer.decrypt('pkmsg', unhex(body)));
  if (d) ok(same(d, p2), `${peer.name}: wachat's second pkmsg decrypts to the bytes sent`);

  const a1 = paddedText('hi wachat');
  const e = await attempt(`${peer.name}: encrypts an answer`, () => peer.encrypt(a1));
  if (e) {
    ok(e.type === peer.msgType, `${peer.name}: its answer is a msg (type ${peer.msgType})`, e.type);
    const line = await tool.cmd(`decrypt ${jid} msg ${hex(e.body)}`);
    ok(line === `plain ${hex(a1)}`, `${peer.name}: wachat decrypts its msg`, line);
  }

  const p3 = paddedText('steady state');
  [type, body] = (await tool.cmd(`encrypt ${jid} ${hex(p3)}`)).split(' ');
  ok(type === 'msg', `${peer.name}: after the answer wachat sends a msg`, type);
  d = await attempt(`${peer.name}: decrypts wachat's msg`, () => peer.decrypt('msg', unhex(body)));
  if (d) ok(same(d, p3), `${peer.name}: wachat's msg decrypts to the bytes sent`);

  // A replayed msg must not decrypt again on the peer (a sanity check of
  // the check itself: the peer really ran its ratchet).
  const again = await peer.decrypt('msg', unhex(body)).then(() => true, () => false);
  ok(!again, `${peer.name}: the same msg does not decrypt twice`);
  await tool.close();
}

// peer -> wachat: wachat's bundle, the peer's pkmsg, our msg, the peer's msg.
async function reverse(peer) {
  const tool = new Tool();
  const ours = await tool.bundle();
  const jid = `${peer.user}@s.whatsapp.net`;
  const built = await attempt(`${peer.name}: builds a session from wachat's prekey bundle`, async () => {
    await peer.process(ours);
    return true;
  });
  if (!built) return tool.close();
  ok(true, `${peer.name}: builds a session from wachat's prekey bundle`);

  const p1 = paddedText(`hello from ${peer.name}`);
  const e1 = await peer.encrypt(p1);
  ok(e1.type === 3, `${peer.name}: its first message is a pkmsg (type 3)`, e1.type);
  let line = await tool.cmd(`decrypt ${jid} pkmsg ${hex(e1.body)}`);
  ok(line === `plain ${hex(p1)}`, `${peer.name}: wachat decrypts its pkmsg`, line);
  line = await tool.cmd(`decrypt ${jid} pkmsg ${hex(e1.body)}`);
  ok(line.startsWith('error '), `${peer.name}: wachat refuses the same pkmsg a second time`, line);

  const a1 = crypto.randomBytes(64);
  const [type, body] = (await tool.cmd(`encrypt ${jid} ${hex(a1)}`)).split(' ');
  ok(type === 'msg', `${peer.name}: wachat answers a pkmsg with a msg`, type);
  const d = await attempt(`${peer.name}: decrypts wachat's answer`, () => peer.decrypt('msg', unhex(body)));
  if (d) ok(same(d, a1), `${peer.name}: wachat's answer decrypts to the bytes sent`);

  const p2 = paddedText('second');
  const e2 = await peer.encrypt(p2);
  ok(e2.type === peer.msgType, `${peer.name}: after wachat's answer it sends a msg`, e2.type);
  line = await tool.cmd(`decrypt ${jid} msg ${hex(e2.body)}`);
  ok(line === `plain ${hex(p2)}`, `${peer.name}: wachat decrypts its msg`, line);
  await tool.close();
}

for (const make of [bridgePeer, libsignalPeer]) {
  await forward(make());
  await reverse(make());
}
tap(`1..${n}`);
process.exit(failed ? 1 : 0);
