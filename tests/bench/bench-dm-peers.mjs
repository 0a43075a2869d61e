#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/bench/bench-dm-peers.mjs -- the peers of tests/bench/bench-dm for
// `make bench` (run-dm.sh): the same 1:1 operations with
// whatsapp-rust-bridge (whatsapp-rust's Signal code in WASM, its
// SessionCipher; its binary-node encoder) and with Baileys (its libsignal,
// its WAProto and its binary-node encoder), both on in-memory Signal
// stores, so they compare with bench-dm's *_mem lines.
//
//   node bench-dm-peers.mjs [--iters N] [--samples S]
//
// Prints one JSON line per bench and peer:
//   {"bench":"dm_send_encode","peer":"bridge","median_ns":…,"min_ns":…,"iters":…,"samples":…}
// dm_send_encode: Message{conversation} encoded (Baileys' proto, for both
// peers: the bridge has no Message protobuf), the deviceSentMessage copy,
// both padded (1..16 random bytes, 9.3), two SessionCipher.encrypt calls on
// acknowledged sessions (a contact's device and my companion), the
// <message><participants><to><enc> node, marshalled.
// dm_recv_steady: one msg of a chain past its ratchet step:
// decryptWhisperMessage, unpad, proto.Message.decode.
// The ciphers are made once per session and reused (the bridge's are WASM
// objects); Baileys makes one per call, which would cost a little more.
// Every operation is awaited (both APIs are asynchronous).  The contact's
// messages for dm_recv_steady are encrypted before each sample, outside the
// timed region.

import crypto from 'node:crypto';
import { createRequire } from 'node:module';

// tests/interop's packages (npm ci there), from this directory.
const mods = new URL('../interop/node_modules/', import.meta.url);
const Bridge = await import(new URL('whatsapp-rust-bridge/dist/index.js', mods));
const libsignal = createRequire(new URL('../interop/package.json', import.meta.url))('libsignal');
const { proto } = await import(new URL('@whiskeysockets/baileys/WAProto/index.js', mods));
const { encodeBinaryNode } = await import(new URL('@whiskeysockets/baileys/lib/WABinary/index.js', mods));

const args = process.argv.slice(2);
let fixedIters = 0, samples = 15;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--iters') fixedIters = Number(args[++i]);
  else if (args[i] === '--samples') samples = Number(args[++i]);
  else {
    process.stderr.write('usage: node bench-dm-peers.mjs [--iters N] [--samples S]\n');
    process.exit(2);
  }
}

const TEXT = 'Hello! Are we still on for lunch tomorrow at 12:30?';
const ME = '15550000001', PEER = '15550000002';
const PEER_JID = `${PEER}@s.whatsapp.net`, ME_DEV1 = `${ME}:1@s.whatsapp.net`;
const TARGET_NS = 10e6;

const pad = (b) => {
  const k = 1 + (crypto.randomBytes(1)[0] & 0x0f);
  return Buffer.concat([b, Buffer.alloc(k, k)]);
};
const unpad = (b) => b.subarray(0, b.length - b[b.length - 1]);

// ---- the two implementations behind one shape ----

const IMPLS = {
  bridge: {
    party(user, device) {
      const identity = Bridge.generateIdentityKeyPair();
      const registrationId = Bridge.generateRegistrationId();
      const signed = Bridge.generateSignedPreKey(identity, 1);
      const pre = Bridge.generatePreKey(1);
      const sessions = new Map();
      const prekeys = new Map([[1, pre.keyPair]]);
      const storage = {
        loadSession: (a) => sessions.get(a),
        // rec is ours: without free() the WASM heap fills and the times
        // swing 10x with the garbage collector
        storeSession: (a, rec) => { sessions.set(a, rec.serialize()); rec.free(); },
        getOurIdentity: () => identity,
        getOurRegistrationId: () => registrationId,
        isTrustedIdentity: () => true,
        loadPreKey: (id) => prekeys.get(id),
        removePreKey: (id) => { prekeys.delete(id); },
        loadSignedPreKey: (id) => (id === 1 ? signed : undefined),
        loadSenderKey: () => undefined,
        storeSenderKey: () => {},
      };
      return {
        user, device, storage, ciphers: new Map(),
        bundle: { registrationId, identityKey: identity.pubKey,
          signedPreKey: { keyId: 1, publicKey: signed.keyPair.pubKey, signature: signed.signature },
          preKey: { keyId: 1, publicKey: pre.keyPair.pubKey } },
      };
    },
    async process(p, to) {
      const b = new Bridge.SessionBuilder(p.storage, new Bridge.ProtocolAddress(to.user, to.device));
      await b.processPreKeyBundle(to.bundle);
      b.free();
    },
    cipher(p, other) {
      const k = `${other.user}.${other.device}`;
      if (!p.ciphers.has(k)) p.ciphers.set(k, new Bridge.SessionCipher(p.storage, new Bridge.ProtocolAddress(other.user, other.device)));
      return p.ciphers.get(k);
    },
    async encrypt(p, to, b) {
      const r = await this.cipher(p, to).encrypt(b);
      return { type: r.type === 3 ? 'pkmsg' : 'msg', body: r.body };
    },
    async decrypt(p, from, type, c) {
      const ci = this.cipher(p, from);
      return type === 'pkmsg' ? ci.decryptPreKeyWhisperMessage(c) : ci.decryptWhisperMessage(c);
    },
    encodeNode: (n) => Bridge.encodeNode(n),
  },
  baileys: {
    party(user, device) {
      const identity = libsignal.keyhelper.generateIdentityKeyPair();
      const registrationId = libsignal.keyhelper.generateRegistrationId();
      const signed = libsignal.keyhelper.generateSignedPreKey(identity, 1);
      const pre = libsignal.keyhelper.generatePreKey(1);
      const sessions = new Map();
      const prekeys = new Map([[1, pre.keyPair]]);
      const storage = {
        loadSession: (a) => sessions.get(a),
        storeSession: (a, rec) => { sessions.set(a, rec); },
        getOurIdentity: () => identity,
        getOurRegistrationId: () => registrationId,
        isTrustedIdentity: () => true,
        loadPreKey: (id) => prekeys.get(id),
        removePreKey: (id) => { prekeys.delete(id); },
        loadSignedPreKey: (id) => (id === 1 ? signed.keyPair : undefined),
      };
      return {
        user, device, storage, ciphers: new Map(),
        bundle: { registrationId, identityKey: identity.pubKey,
          signedPreKey: { keyId: 1, publicKey: signed.keyPair.pubKey, signature: signed.signature },
          preKey: { keyId: 1, publicKey: pre.keyPair.pubKey } },
      };
    },
    async process(p, to) {
      await new libsignal.SessionBuilder(p.storage, new libsignal.ProtocolAddress(to.user, to.device)).initOutgoing(to.bundle);
    },
    cipher(p, other) {
      const k = `${other.user}.${other.device}`;
      if (!p.ciphers.has(k)) p.ciphers.set(k, new libsignal.SessionCipher(p.storage, new libsignal.ProtocolAddress(other.user, other.device)));
      return p.ciphers.get(k);
    },
    async encrypt(p, to, b) {
      const r = await this.cipher(p, to).encrypt(b);
      return { type: r.type === 3 ? 'pkmsg' : 'msg', body: Buffer.from(r.body, 'binary') };
    },
    async decrypt(p, from, type, c) {
      const ci = this.cipher(p, from);
      return type === 'pkmsg' ? ci.decryptPreKeyWhisperMessage(c) : ci.decryptWhisperMessage(c);
    },
    encodeNode: (n) => encodeBinaryNode(n),
  },
};

// from -> to: bundle, pkmsg, the answer: acknowledged both ways.
async function converse(impl, from, to) {
  await impl.process(from, to);
  const e = await impl.encrypt(from, to, Buffer.from('hi'));
  if (e.type !== 'pkmsg') throw new Error('the first message is not a pkmsg');
  await impl.decrypt(to, from, 'pkmsg', e.body);
  const r = await impl.encrypt(to, from, Buffer.from('yo'));
  if (r.type !== 'msg') throw new Error('the answer is not a msg');
  await impl.decrypt(from, to, 'msg', r.body);
}

async function sendOp(impl, me, peer, comp) {
  const payload = proto.Message.encode({ conversation: TEXT }).finish();
  const dsm = proto.Message.encode({ deviceSentMessage: { destinationJid: PEER_JID, message: { conversation: TEXT } } }).finish();
  const a = await impl.encrypt(me, peer, pad(Buffer.from(payload)));
  const b = await impl.encrypt(me, comp, pad(Buffer.from(dsm)));
  const node = {
    tag: 'message', attrs: { id: '3EB0C0FFEE0123456789AB', to: PEER_JID, type: 'text' },
    content: [{ tag: 'participants', attrs: {}, content: [
      { tag: 'to', attrs: { jid: PEER_JID }, content: [{ tag: 'enc', attrs: { v: '2', type: a.type }, content: a.body }] },
      { tag: 'to', attrs: { jid: ME_DEV1 }, content: [{ tag: 'enc', attrs: { v: '2', type: b.type }, content: b.body }] },
    ] }],
  };
  return impl.encodeNode(node).length;
}

async function recvOp(impl, me, peer, c) {
  const plain = Buffer.from(await impl.decrypt(me, peer, 'msg', c));
  const m = proto.Message.decode(unpad(plain));
  if (m.conversation !== TEXT) throw new Error('wrong text');
  return 1;
}

async function measure(runN) {
  // warm (~300 ms: the JIT and WASM tiers settle), then iters for
  // ~TARGET_NS per sample from the fastest of three runs
  const w0 = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - w0) < 300e6) await runN(20);
  let per = Infinity;
  for (let i = 0; i < 3; i++) per = Math.min(per, await runN(50));
  const iters = fixedIters || Math.max(1, Math.round(TARGET_NS / per));
  const s = [];
  for (let i = 0; i < samples; i++) s.push(await runN(iters));
  s.sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median_ns: Math.round(median), min_ns: Math.round(s[0]), iters, samples };
}

let status = 0;
for (const [name, impl] of Object.entries(IMPLS)) {
  try {
    const me = impl.party(ME, 0), peer = impl.party(PEER, 0), comp = impl.party(ME, 1);
    await converse(impl, me, peer);
    await converse(impl, me, comp);
    const send = await measure(async (n) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await sendOp(impl, me, peer, comp);
      return Number(process.hrtime.bigint() - t0) / n;
    });
    process.stdout.write(JSON.stringify({ bench: 'dm_send_encode', peer: name, ...send }) + '\n');

    // receiving: the contact starts, I answer, its chain then steps
    const rme = impl.party(ME, 0), rpeer = impl.party(PEER, 0);
    await converse(impl, rpeer, rme);
    const payload = pad(Buffer.from(proto.Message.encode({ conversation: TEXT }).finish()));
    const first = await impl.encrypt(rpeer, rme, payload);
    await recvOp(impl, rme, rpeer, first.body); // the ratchet step
    const recv = await measure(async (n) => {
      const cts = [];
      for (let i = 0; i < n; i++) cts.push((await impl.encrypt(rpeer, rme, payload)).body);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await recvOp(impl, rme, rpeer, cts[i]);
      return Number(process.hrtime.bigint() - t0) / n;
    });
    process.stdout.write(JSON.stringify({ bench: 'dm_recv_steady', peer: name, ...recv }) + '\n');
  } catch (e) {
    process.stderr.write(`bench-dm-peers: ${name}: ${(e && e.stack) || e}\n`);
    status = 1;
  }
}
process.exit(status);
