#!/usr/bin/env node
// Differential test of wachat's C binary-node codec (the tool named by
// $WA_BIN_JSON) against two codecs written elsewhere: Baileys' JS codec
// (@whiskeysockets/baileys lib/WABinary) and whatsapp-rust-bridge (Rust/WASM).
//
//   WA_BIN_JSON=path/to/wa-bin-json [SEED=n] [TREES=n] node codec-check.mjs
//
// Output is TAP.  See README.md for what is checked.
// Extra env: DUMP=<i> prints random tree i (typed JSON) and exits;
//            MAXDIAG=<n> mismatches shown per check (default 5).

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const T0 = process.hrtime.bigint();
const elapsed = () => (Number(process.hrtime.bigint() - T0) / 1e9).toFixed(1) + 's';

const SEED = process.env.SEED !== undefined && process.env.SEED !== '' ? Number(process.env.SEED) >>> 0 : 20260821;
const TREES = process.env.TREES !== undefined && process.env.TREES !== '' ? Math.max(0, parseInt(process.env.TREES, 10)) : 10000;
const MAXDIAG = process.env.MAXDIAG ? parseInt(process.env.MAXDIAG, 10) : 5;
const COMPRESSED_RANDOM = 300; // random trees also checked as compressed frames
const TOOL_TIMEOUT_MS = 100_000;

// ---------------------------------------------------------------------------
// libraries

const { encodeBinaryNode, decodeBinaryNode, decodeDecompressedBinaryNode } = await import('@whiskeysockets/baileys/lib/WABinary/index.js');
const WAConst = await import('@whiskeysockets/baileys/lib/WABinary/constants.js');
const Bridge = await import('whatsapp-rust-bridge');

// ---------------------------------------------------------------------------
// typed nodes, and how each reference codec takes and prints them
// (exported; bench-codec.mjs imports them)
//
// The "typed node" JSON format (the contract with the C tool, see README.md):
//   node    := {"tag": STRING, "attrs": [[KEY, VALUE], ...], "content"?: CONTENT}
//   VALUE   := {"s": STRING} | {"j": JID}
//   CONTENT := {"s": STRING} | {"j": JID} | {"b": HEX} | {"l": [node, ...]}
//   JID     := {"user", "server", "device", "agent", "integrator"}
// In the harness, byte content is held as a Buffer ({"b": Buffer}) after
// expansion; {"bgen": {"len": N, "seed": S}} is a corpus-only shorthand for N
// deterministic pseudo-random bytes (see genBytes).
//
// The functions below also know how each of the two reference codecs takes
// its input and prints its output, so that the harness can predict what each
// one says about wachat's bytes.

export const SINGLE_TOKENS = WAConst.SINGLE_BYTE_TOKENS; // index 0 is '' (not a token)
export const DOUBLE_TOKENS = WAConst.DOUBLE_BYTE_TOKENS; // 4 x 256
export const WA_CONSTANTS = WAConst;

const tokenSet = new Set();
for (let i = 1; i < SINGLE_TOKENS.length; i++) tokenSet.add(SINGLE_TOKENS[i]);
for (const dict of DOUBLE_TOKENS) for (const t of dict) tokenSet.add(t);

export const isToken = (s) => s !== '' && tokenSet.has(s);

const PACKED_MAX = 127;
const NIBBLE_RE = /^[0-9.-]+$/;
const HEX_RE = /^[0-9A-F]+$/;

// How a string is written on the wire by all three encoders (when it is not
// turned into a JID): 'token' | 'nibble' | 'hex' | 'raw'.  The empty string is
// written raw (FC 00).
export function stringForm(s) {
  if (s === '') return 'raw';
  if (isToken(s)) return 'token';
  if (s.length <= PACKED_MAX && NIBBLE_RE.test(s)) return 'nibble';
  if (s.length <= PACKED_MAX && HEX_RE.test(s)) return 'hex';
  return 'raw';
}

// ---------------------------------------------------------------------------
// deterministic bytes for {"bgen": {"len", "seed"}}
// xorshift32, state0 = (seed * 0x9E3779B1 + 0x7F4A7C15) mod 2^32 (0 -> 1),
// each step x ^= x << 13; x ^= x >>> 17; x ^= x << 5; emit the low byte.
export function genBytes(len, seed) {
  let x = (Math.imul(seed >>> 0, 0x9e3779b1) + 0x7f4a7c15) >>> 0;
  if (x === 0) x = 1;
  const out = Buffer.allocUnsafe(len);
  for (let i = 0; i < len; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

// ---------------------------------------------------------------------------
// JIDs

export function normJid(j) {
  return {
    user: j.user ?? '',
    server: j.server,
    device: j.device ?? 0,
    agent: j.agent ?? 0,
    integrator: j.integrator ?? 0,
  };
}

// The wire form the whatsmeow rules (and so wachat) choose for a typed JID.
export function jidWireForm(j) {
  const s = j.server;
  const dev = j.device ?? 0;
  if (((s === 's.whatsapp.net' || s === 'lid') && dev > 0) || s === 'hosted' || s === 'hosted.lid') return 'ad';
  if (s === 'msgr') return 'fb';
  if (s === 'interop') return 'interop';
  return 'pair';
}

// AD_JID domain byte written for a typed JID in AD form.
export function adDomain(j) {
  switch (j.server) {
    case 'lid': return 1;
    case 'hosted': return 128;
    case 'hosted.lid': return 129;
    default: return j.agent ?? 0; // s.whatsapp.net: 0 or a legacy agent
  }
}

// The typed JID that a decoder following the contract returns for the bytes
// wachat writes for j (device is lost in JID_PAIR, the server of an AD_JID
// comes from the domain byte).
export function jidAfterWire(j) {
  const n = normJid(j);
  switch (jidWireForm(n)) {
    case 'ad': {
      const d = adDomain(n);
      const server = d === 1 ? 'lid' : d === 128 ? 'hosted' : d === 129 ? 'hosted.lid' : 's.whatsapp.net';
      return { user: n.user, server, device: n.device & 0xff, agent: server === 's.whatsapp.net' ? d : 0, integrator: 0 };
    }
    case 'fb': return { user: n.user, server: n.server, device: n.device, agent: 0, integrator: 0 };
    case 'interop': return { user: n.user, server: n.server, device: n.device, agent: 0, integrator: n.integrator };
    default: return { user: n.user, server: n.server, device: 0, agent: 0, integrator: 0 };
  }
}

// The string handed to Baileys / the bridge so that they pick the same wire
// form as wachat: "user[_agent][:device]@server".  Both libraries write an
// AD_JID whenever a ":device" part is present (even ":0") and a JID_PAIR when
// it is absent, so ":0" is added for hosted / hosted.lid (AD_JID even for
// device 0 under the whatsmeow rules) and left out for device 0 elsewhere.
export function jidToLibString(j) {
  const n = normJid(j);
  const form = jidWireForm(n);
  let s = n.user;
  if (form === 'ad') {
    if (n.server === 's.whatsapp.net' && n.agent) s += '_' + n.agent;
    s += ':' + n.device;
  } else if (n.device) {
    s += ':' + n.device; // not an AD server: a disagreement shape (see codec-check)
  }
  return s + '@' + n.server;
}

// How Baileys' decoder prints the JID that wachat wrote for j.
export function baileysJidView(j) {
  const n = normJid(j);
  switch (jidWireForm(n)) {
    case 'ad': {
      const d = adDomain(n);
      const server = d === 1 ? 'lid' : d === 128 ? 'hosted' : d === 129 ? 'hosted.lid' : 's.whatsapp.net';
      return `${n.user}${n.device & 0xff ? ':' + (n.device & 0xff) : ''}@${server}`; // agent is dropped
    }
    case 'fb': return `${n.user}:${n.device}@${n.server}`;
    case 'interop': return `${n.integrator}-${n.user}:${n.device}@${n.server}`;
    default: return `${n.user}@${n.server}`; // empty user: "@s.whatsapp.net"
  }
}

// How the bridge's decoder prints the JID that wachat wrote for j.
// Returns {error: true} where the bridge refuses the bytes.
export function bridgeJidView(j) {
  const n = normJid(j);
  switch (jidWireForm(n)) {
    case 'ad': {
      const d = adDomain(n);
      let server, suffix = '';
      if (d === 0) server = 's.whatsapp.net';
      else if (d === 1) server = 'lid';
      else if (d === 128) server = 'hosted';
      else if (d === 129) { server = 'hosted.lid'; suffix = '.129'; } // bridge quirk: agent kept as ".129"
      else if (d > 129 && d % 2 === 0) server = 'hosted';
      else return { error: true };
      const dev = n.device & 0xff;
      return `${n.user}${suffix}${dev ? ':' + dev : ''}@${server}`;
    }
    case 'fb': return `${n.user}${n.device ? ':' + n.device : ''}@${n.server}`;
    case 'interop': return `${n.user}${n.device ? ':' + n.device : ''}@${n.server}`; // integrator dropped
    default: return n.user ? `${n.user}@${n.server}` : n.server; // empty user: "s.whatsapp.net"
  }
}

// ---------------------------------------------------------------------------
// typed node <-> JSON text

function hexOk(h) { return typeof h === 'string' && /^([0-9a-fA-F]{2})*$/.test(h); }

// Validate a typed node read from JSON and expand {"b": hex} / {"bgen"} into
// Buffers.  Extra fields (name, shape, ...) are dropped.
export function expandNode(n, where = 'node') {
  if (!n || typeof n.tag !== 'string') throw new Error(`${where}: missing tag`);
  if (!Array.isArray(n.attrs)) throw new Error(`${where}: attrs must be an array`);
  const attrs = n.attrs.map(([k, v], i) => {
    if (typeof k !== 'string') throw new Error(`${where}.attrs[${i}]: key`);
    if (v && typeof v.s === 'string') return [k, { s: v.s }];
    if (v && v.j) return [k, { j: normJid(v.j) }];
    throw new Error(`${where}.attrs[${i}]: bad value`);
  });
  const out = { tag: n.tag, attrs };
  const c = n.content;
  if (c !== undefined) {
    if (typeof c.s === 'string') out.content = { s: c.s };
    else if (c.j) out.content = { j: normJid(c.j) };
    else if (c.b !== undefined) {
      if (!hexOk(c.b)) throw new Error(`${where}: bad hex`);
      out.content = { b: Buffer.from(c.b, 'hex') };
    } else if (c.bgen) out.content = { b: genBytes(c.bgen.len, c.bgen.seed ?? 0) };
    else if (Array.isArray(c.l)) out.content = { l: c.l.map((ch, i) => expandNode(ch, `${where}.l[${i}]`)) };
    else throw new Error(`${where}: bad content`);
  }
  return out;
}

// Typed node (expanded) -> the JSON line the C tool reads (bytes as hex).
export function toToolLine(n) {
  let s = '{"tag":' + JSON.stringify(n.tag) + ',"attrs":[';
  s += n.attrs.map(([k, v]) => '[' + JSON.stringify(k) + ',' + JSON.stringify(v) + ']').join(',');
  s += ']';
  const c = n.content;
  if (c) {
    if (c.b) s += ',"content":{"b":"' + c.b.toString('hex') + '"}';
    else if (c.l) s += ',"content":{"l":[' + c.l.map(toToolLine).join(',') + ']}';
    else s += ',"content":' + JSON.stringify(c);
  }
  return s + '}';
}

// ---------------------------------------------------------------------------
// input for the reference libraries: {tag, attrs: {k: string}, content}

export function toLib(n) {
  const attrs = {};
  for (const [k, v] of n.attrs) attrs[k] = v.j ? jidToLibString(v.j) : v.s;
  const out = { tag: n.tag, attrs };
  const c = n.content;
  if (c) {
    if (c.b) out.content = c.b;
    else if (c.l) out.content = c.l.map(toLib);
    else if (c.j) out.content = jidToLibString(c.j);
    else out.content = c.s;
  }
  return out;
}

// ---------------------------------------------------------------------------
// "views": canonical, JSON-comparable renderings of a decoded node, in the
// shape of the typed format: {tag, attrs: [[k, v], ...], content?} where v is
// a typed value ({s} / {j}) for the C tool and a plain string for the two
// JS libraries, and content is {s: str} | {b: hex} | {j: JID} | {l: [view...]}.

// Byte strings in views: hex up to 256 bytes, a digest beyond (keeps the
// comparisons of megabyte payloads cheap).
export function bytesKey(buf) {
  if (buf.length <= 256) return buf.toString('hex');
  return `${buf.subarray(0, 16).toString('hex')}…(${buf.length} bytes, sha256 ${createHash('sha256').update(buf).digest('hex').slice(0, 32)})`;
}
const strContentView = (s) => (stringForm(s) === 'raw' ? { b: bytesKey(Buffer.from(s, 'utf8')) } : { s });

// What the C decoder must return for the bytes all three encoders agree on.
export function expectedTyped(n) {
  const v = { tag: n.tag, attrs: [] };
  for (const [k, val] of n.attrs) {
    if (val.j) v.attrs.push([k, { j: jidAfterWire(val.j) }]);
    else if (val.s !== '') v.attrs.push([k, { s: val.s }]);
  }
  const c = n.content;
  if (c) {
    if (c.b) v.content = { b: bytesKey(c.b) };
    else if (c.l) v.content = { l: c.l.map(expectedTyped) };
    else if (c.j) v.content = { j: jidAfterWire(c.j) };
    else v.content = strContentView(c.s);
  }
  return v;
}

// What Baileys' decoder returns for wachat's bytes of n.
export function expectedBaileys(n) {
  const v = { tag: n.tag, attrs: [] };
  for (const [k, val] of n.attrs) {
    if (val.j) v.attrs.push([k, baileysJidView(val.j)]);
    else if (val.s !== '') v.attrs.push([k, val.s]);
  }
  const c = n.content;
  if (c) {
    if (c.b) v.content = { b: bytesKey(c.b) };
    else if (c.l) v.content = { l: c.l.map(expectedBaileys) };
    else if (c.j) v.content = { s: baileysJidView(c.j) };
    else v.content = strContentView(c.s);
  }
  return v;
}

// What the bridge's decoder returns for wachat's bytes of n.
// An empty child list comes back as "no content" from the bridge.
export function expectedBridge(n) {
  const v = { tag: n.tag, attrs: [] };
  for (const [k, val] of n.attrs) {
    if (val.j) v.attrs.push([k, bridgeJidView(val.j)]);
    else if (val.s !== '') v.attrs.push([k, val.s]);
  }
  const c = n.content;
  if (c) {
    if (c.b) v.content = { b: bytesKey(c.b) };
    else if (c.l) { if (c.l.length) v.content = { l: c.l.map(expectedBridge) }; }
    else if (c.j) v.content = { s: bridgeJidView(c.j) };
    else v.content = strContentView(c.s);
  }
  return v;
}

// Baileys decoder output -> view.
export function viewOfBaileys(d) {
  const v = { tag: d.tag, attrs: Object.entries(d.attrs) };
  const c = d.content;
  if (c !== undefined) {
    if (Array.isArray(c)) v.content = { l: c.map(viewOfBaileys) };
    else if (typeof c === 'string') v.content = { s: c };
    else v.content = { b: bytesKey(Buffer.from(c.buffer, c.byteOffset, c.length)) };
  }
  return v;
}

// bridge decoder output (read from the InternalBinaryNode) -> view.
export function viewOfBridge(d) {
  const v = { tag: d.tag, attrs: Object.entries(d.attrs) };
  const c = d.content;
  if (c !== undefined && c !== null) {
    if (Array.isArray(c)) v.content = { l: c.map(viewOfBridge) };
    else if (typeof c === 'string') v.content = { s: c };
    else v.content = { b: bytesKey(Buffer.from(c.buffer, c.byteOffset, c.length)) };
  }
  return v;
}

// C tool output (parsed JSON) -> view.  JIDs get their defaults filled in.
export function viewOfTyped(d) {
  const v = { tag: d.tag, attrs: (d.attrs || []).map(([k, val]) => [k, val && val.j ? { j: normJid(val.j) } : val]) };
  const c = d.content;
  if (c !== undefined && c !== null) {
    if (c.l) v.content = { l: c.l.map(viewOfTyped) };
    else if (c.j) v.content = { j: normJid(c.j) };
    else if (typeof c.b === 'string') {
      // the contract says lowercase hex; anything else is kept verbatim so it mismatches
      v.content = { b: /^([0-9a-f]{2})*$/.test(c.b) ? bytesKey(Buffer.from(c.b, 'hex')) : c.b };
    } else v.content = c;
  }
  return v;
}

export function firstDiff(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

// ---------------------------------------------------------------------------
// seeded PRNG (sfc32) and the random tree generator

function makeRng(seed) {
  let a = seed >>> 0, b = 0x9e3779b9, c = 0x243f6a88, d = 0xb7e15162;
  const u32 = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 16; i++) u32();
  const rng = {
    u32,
    float: () => u32() / 4294967296,
    int: (n) => Math.floor((u32() / 4294967296) * n), // 0..n-1
    range: (lo, hi) => lo + Math.floor((u32() / 4294967296) * (hi - lo + 1)), // lo..hi
    pick: (arr) => arr[Math.floor((u32() / 4294967296) * arr.length)],
    chance: (p) => u32() / 4294967296 < p,
    bytes: (n) => {
      const out = Buffer.allocUnsafe(n);
      let i = 0;
      for (; i + 4 <= n; i += 4) out.writeUInt32LE(u32(), i);
      for (; i < n; i++) out[i] = u32() & 0xff;
      return out;
    },
  };
  return rng;
}

// Keys and values the generator must not produce (they are disagreement
// shapes checked separately, or cannot be expressed as a JS object):
//  * attribute keys that are canonical array indices ("0", "12", ...): JS
//    objects (the input format of Baileys and the bridge) list such keys
//    first, in numeric order, so wire order could not be kept;
//  * duplicate keys in one node: impossible in a JS object (unique per node);
//  * Object.prototype member names ("constructor", "toString", ...): Baileys
//    looks strings up in a plain-object token map and writes 0x00 for them
//    (shape f);
//  * strings containing '@': Baileys and the bridge turn them into JIDs,
//    wachat does not (shape a);
//  * empty attribute values (shape b) and whitespace-only ones (the bridge
//    drops those, shape l); tag "0" (whatsmeow writes F8 00 for
//    it); devices on servers without an AD_JID form (shape h); legacy agents
//    (shape i); msgr and interop JIDs (shapes e, j).
const CANONICAL_INDEX = /^(0|[1-9][0-9]*)$/;
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const badKey = (k) => k === '' || k.includes('@') || CANONICAL_INDEX.test(k) || PROTO_NAMES.has(k);
const badString = (s) => s === '' || s.includes('@') || PROTO_NAMES.has(s);
const badAttrValue = (s) => badString(s) || s.trim() === '';

const SINGLE = SINGLE_TOKENS.slice(1);
const UNICODE_PIECES = ['Привет', 'мир', 'Ёжик', 'Жж', '日本語', '中文字', '한국어', 'العربية', 'עברית', 'ελληνικά',
  '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🦔', '👍🏽', 'é', 'ñ', 'e\u0301', 'ß', '€', ' ', '-', 'x', '\u00a0', '𝄞'];
const ASCII_RAW = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/+=,;!?#$%&*()[]{}<>~\'"\\|^`';
const WORD = 'abcdefghijklmnopqrstuvwxyz0123456789_-.:';
const SERVERS = ['s.whatsapp.net', 'lid', 'g.us', 'broadcast', 'newsletter', 'hosted', 'hosted.lid', 'bot', 'c.us'];
const AD_SERVERS = new Set(['s.whatsapp.net', 'lid', 'hosted', 'hosted.lid']);

function makeGenerator(rng) {
  const digits = (n) => { let s = String(rng.range(1, 9)); while (s.length < n) s += rng.int(10); return s; };
  const packedLen = () => {
    const r = rng.float();
    if (r < 0.3) return rng.range(1, 8);
    if (r < 0.6) return rng.range(9, 40);
    if (r < 0.85) return rng.range(41, 127);
    return rng.pick([126, 127, 128]); // 128: too long to pack, written raw
  };
  const fromAlphabet = (alpha, n) => { let s = ''; for (let i = 0; i < n; i++) s += alpha[rng.int(alpha.length)]; return s; };
  const genStringOnce = () => {
    const r = rng.float();
    if (r < 0.2) return rng.pick(SINGLE);
    if (r < 0.4) return rng.pick(DOUBLE_TOKENS[rng.int(4)]);
    if (r < 0.55) return fromAlphabet('0123456789-.', packedLen());
    if (r < 0.65) return fromAlphabet('0123456789ABCDEF', packedLen());
    if (r < 0.85) return fromAlphabet(ASCII_RAW, rng.chance(0.01) ? rng.range(256, 600) : rng.range(1, 40));
    let s = '';
    const n = rng.chance(0.01) ? rng.range(60, 150) : rng.range(1, 6);
    for (let i = 0; i < n; i++) s += rng.pick(UNICODE_PIECES);
    return s;
  };
  const genString = () => { for (;;) { const s = genStringOnce(); if (!badString(s)) return s; } };
  const genAttrValue = () => { for (;;) { const s = genStringOnce(); if (!badAttrValue(s)) return s; } };
  const genWord = () => fromAlphabet(WORD, rng.range(1, 12));
  const genKey = (used) => {
    for (;;) {
      const r = rng.float();
      const k = r < 0.4 ? rng.pick(SINGLE) : r < 0.65 ? rng.pick(DOUBLE_TOKENS[rng.int(4)]) : r < 0.97 ? genWord() : genString();
      if (!badKey(k) && !used.has(k)) { used.add(k); return k; }
    }
  };
  const genTag = () => {
    for (;;) {
      const r = rng.float();
      const t = r < 0.45 ? rng.pick(SINGLE) : r < 0.65 ? rng.pick(DOUBLE_TOKENS[rng.int(4)]) : r < 0.95 ? genWord() : genString();
      if (t !== '0' && !badString(t)) return t;
    }
  };
  const genJid = () => {
    if (rng.chance(0.05)) return { user: '', server: rng.chance(0.7) ? 's.whatsapp.net' : 'g.us', device: 0, agent: 0, integrator: 0 };
    const server = rng.pick(SERVERS);
    let user;
    switch (server) {
      case 'lid': case 'hosted.lid': user = digits(rng.range(14, 15)); break;
      case 'g.us': user = rng.chance(0.5) ? '1203630' + digits(11) : digits(11) + '-' + digits(10); break;
      case 'broadcast': user = rng.chance(0.4) ? 'status' : digits(10); break;
      case 'newsletter': user = '120363' + digits(12); break;
      default: user = digits(rng.range(8, 15));
    }
    const r = rng.float();
    if (r < 0.03) user = fromAlphabet('0123456789ABCDEF', rng.range(4, 20)); // hex-packed user
    else if (r < 0.06) user = fromAlphabet('abcdefghijklmnopqrstuvwxyz', rng.range(1, 12)); // raw user
    let device = 0;
    if (AD_SERVERS.has(server)) {
      const d = rng.float();
      device = d < 0.45 ? 0 : d < 0.9 ? rng.range(1, 99) : rng.range(100, 255);
    }
    return { user, server, device, agent: 0, integrator: 0 };
  };
  const genBytesLen = () => {
    const r = rng.float();
    if (r < 0.1) return 0;
    if (r < 0.5) return rng.range(1, 32);
    if (r < 0.75) return rng.range(33, 200);
    if (r < 0.95) return rng.range(250, 262);
    if (r < 0.995) return rng.range(263, 4000);
    if (r < 0.999) return rng.range(65530, 65540);
    return rng.range(0x10000, 0x30000);
  };
  const MAXDEPTH = 4;
  const genAttrCount = () => {
    const r = rng.float();
    if (r < 0.25) return 0;
    if (r < 0.75) return rng.range(1, 3);
    if (r < 0.97) return rng.range(4, 8);
    if (r < 0.9995) return rng.range(9, 30);
    return rng.pick([127, 128]); // node header list size 255/256/257
  };
  const genNode = (depth) => {
    const used = new Set();
    const attrs = [];
    const na = genAttrCount();
    for (let i = 0; i < na; i++) {
      const k = genKey(used);
      attrs.push([k, rng.chance(0.12) ? { j: genJid() } : { s: genAttrValue() }]);
    }
    const node = { tag: genTag(), attrs };
    const r = rng.float();
    const canList = depth < MAXDEPTH;
    if (depth === 0 && canList && r < 0.5) node.content = { l: genList(depth) };
    else if (r < 0.3) { /* no content */ }
    else if (r < 0.45) node.content = { s: rng.chance(0.03) ? '' : genString() };
    else if (r < 0.75) node.content = { b: rng.bytes(genBytesLen()) };
    else if (r < 0.8) node.content = { j: genJid() };
    else if (canList) node.content = { l: genList(depth) };
    else node.content = { b: rng.bytes(genBytesLen()) };
    return node;
  };
  const genList = (depth) => {
    const r = rng.float();
    let n;
    if (r < 0.08) n = 0;
    else if (r < 0.93) n = rng.range(1, 3);
    else if (r < 0.997) n = rng.range(4, 20);
    else n = rng.pick([255, 256, rng.range(257, 300)]); // LIST_8 limit / LIST_16
    const childDepth = n > 30 ? MAXDEPTH : depth + 1;
    const out = [];
    for (let i = 0; i < n; i++) out.push(genNode(childDepth));
    return out;
  };
  // Every 2000th tree carries one huge payload around the BINARY_20 /
  // BINARY_32 boundary (a default run has 5; Baileys' encoder needs ~0.3 s
  // for each).
  const BIG = [0xfffff, 0x100000, 0xfffff - 1, 0x100001];
  const genTree = (index) => {
    const t = genNode(0);
    if (index % 2000 === 1999) {
      const len = BIG[((index - 1999) / 2000) % BIG.length];
      const big = { tag: genTag(), attrs: [], content: { b: rng.bytes(len) } };
      if (t.content && t.content.l) t.content.l.push(big);
      else t.content = { l: [big] };
    }
    return t;
  };
  return { genTree };
}

// ---------------------------------------------------------------------------
// TAP helpers

let testNo = 0, passed = 0, failed = 0;
const out = (s) => process.stdout.write(s + '\n');
const diag = (s) => { for (const line of String(s).split('\n')) out('# ' + line); };
function report(ok, desc, diags = []) {
  testNo++;
  if (ok) passed++; else failed++;
  out(`${ok ? 'ok' : 'not ok'} ${testNo} - ${desc}`);
  for (const d of diags) diag('  ' + d);
}
// Aggregating check: call .fail(name, msg) per mismatch, .done(desc).
function check() {
  const c = { n: 0, bad: 0, diags: [] };
  c.pass = () => { c.n++; };
  c.fail = (name, msg) => { c.n++; c.bad++; if (c.diags.length < MAXDIAG) c.diags.push(`${name}: ${msg}`); };
  c.done = (desc) => {
    const d = c.diags.slice();
    if (c.bad > c.diags.length) d.push(`… and ${c.bad - c.diags.length} more`);
    report(c.bad === 0 && c.n > 0, `${desc} (${c.n - c.bad}/${c.n})`, c.n === 0 ? ['nothing was checked'] : d);
  };
  return c;
}
const hexDiff = (want, got) => {
  if (got === undefined) return 'no output';
  const i = firstDiff(want, got) & ~1;
  const ctx = (h) => (i > 0 ? '…' : '') + h.slice(Math.max(0, i - 8), i + 40) + (h.length > i + 40 ? '…' : '');
  return `first difference at byte ${i / 2} (want ${want.length / 2} bytes, got ${got.length / 2}): want ${ctx(want)} got ${ctx(got)}`;
};
const viewDiff = (want, got) => {
  const a = JSON.stringify(want), b = JSON.stringify(got);
  const i = firstDiff(a, b);
  const ctx = (s) => (i > 30 ? '…' : '') + s.slice(Math.max(0, i - 30), i + 60) + (s.length > i + 60 ? '…' : '');
  return `want ${ctx(a)} got ${ctx(b)}`;
};

// ---------------------------------------------------------------------------
// the C tool

const TOOL = process.env.WA_BIN_JSON;
function toolUsable(p) {
  if (!p) return false;
  try { fs.accessSync(p, fs.constants.X_OK); return fs.statSync(p).isFile(); } catch { return false; }
}

// Run "$WA_BIN_JSON mode", feeding count lines (lineAt(i) gives line i) and
// handing each output line to onLine(i, line) as it arrives, so that nothing
// big has to be kept.  Resolves with the number of lines seen and the exit.
function runTool(mode, count, lineAt, onLine) {
  return new Promise((resolve) => {
    const child = spawn(TOOL, [mode], { stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = 0;
    let pending = []; // pieces of the current, unfinished line
    let stderr = '';
    let timedOut = false;
    let spawnError = null;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, TOOL_TIMEOUT_MS);
    const endLine = () => {
      let l = pending.length === 1 ? pending[0] : pending.join('');
      pending = [];
      if (l.endsWith('\r')) l = l.slice(0, -1);
      if (seen < count) onLine(seen, l);
      seen++;
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      let start = 0, nl;
      while ((nl = chunk.indexOf('\n', start)) !== -1) {
        pending.push(chunk.slice(start, nl));
        endLine();
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.slice(start));
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
    child.on('error', (e) => { spawnError = e; });
    child.stdin.on('error', () => { /* EPIPE if the tool dies early; reported via counts */ });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (pending.length) endLine();
      resolve({ seen, code, signal, stderr, timedOut, spawnError });
    });
    let i = 0;
    const pump = () => {
      while (i < count) {
        const ok = child.stdin.write(lineAt(i++) + '\n');
        if (!ok) { child.stdin.once('drain', pump); return; }
      }
      child.stdin.end();
    };
    pump();
  });
}
function toolRunReport(mode, res, count) {
  const ok = !res.spawnError && !res.timedOut && res.code === 0 && res.seen === count;
  const d = [];
  if (res.spawnError) d.push(`spawn failed: ${res.spawnError.message}`);
  if (res.timedOut) d.push(`killed after ${TOOL_TIMEOUT_MS / 1000}s`);
  if (res.code !== 0) d.push(`exit code ${res.code}${res.signal ? ' signal ' + res.signal : ''}`);
  if (res.seen !== count) d.push(`${count} lines in, ${res.seen} lines out`);
  if (!ok && res.stderr) d.push('stderr: ' + res.stderr.trim().split('\n').slice(-5).join(' | '));
  report(ok, `wachat ${mode}: one process, ${count} lines in, one line out per input, exit 0`, d);
}

// ---------------------------------------------------------------------------
// reference encoders / decoders

const baileysEncode = (lib) => encodeBinaryNode(lib); // Buffer, starts with the 0x00 flags byte
const bridgeEncode = (lib) => Buffer.from(Bridge.encodeNode(lib)); // starts with the flags byte
function baileysDecodeView(buf) {
  try { return viewOfBaileys(decodeDecompressedBinaryNode(buf.subarray(1), WA_CONSTANTS)); } catch (e) { return { error: String(e.message || e) }; }
}
async function baileysDecodeFrameView(buf) {
  try { return viewOfBaileys(await decodeBinaryNode(buf)); } catch (e) { return { error: String(e.message || e) }; }
}
// The bridge's decodeNode returns a WASM handle.  Its toJSON() leaks (about
// 1.5 KB of JS heap + WASM memory per call, which makes runs of 50000 trees
// crawl), so the tree is read through the getters instead, freeing every
// handle (children come back as handles too).
function bridgeTree(h) {
  try {
    const out = { tag: h.tag, attrs: h.attrs };
    const c = h.content;
    if (Array.isArray(c)) {
      const kids = [];
      let i = 0;
      try { for (; i < c.length; i++) kids.push(bridgeTree(c[i])); } finally { for (i++; i < c.length; i++) c[i].free(); }
      out.content = kids;
    } else if (c !== undefined && c !== null) out.content = c;
    return out;
  } finally {
    h.free();
  }
}
function bridgeDecodeView(buf) {
  let h;
  try { h = Bridge.decodeNode(buf); } catch (e) { return { error: String((e && e.message) || e) }; }
  return viewOfBridge(bridgeTree(h));
}
const tryEncode = (fn, lib) => { try { return fn(lib); } catch (e) { return { error: String((e && e.message) || e) }; } };
const isErr = (x) => x && !Buffer.isBuffer(x) && typeof x === 'object' && 'error' in x;
const errStr = (x) => (isErr(x) ? `error: ${x.error}` : x);

// ---------------------------------------------------------------------------
// corpora

function loadCorpus() {
  const raw = JSON.parse(fs.readFileSync(path.join(HERE, 'nodes.json'), 'utf8'));
  return raw.map((e, i) => ({ name: e.name || `nodes.json[${i}]`, entry: e, node: expandNode(e, e.name) }));
}

// Deterministic extra trees (independent of SEED): every token, size limits.
function generatedCorpus() {
  const S = (s) => ({ s });
  const items = [];
  const tokNode = (name, toks) => ({
    name, tokens: true,
    node: { tag: 'tokens', attrs: [['set', S(name)]], content: { l: toks.map((t) => ({ tag: 'item', attrs: [['v', S(t)]], content: { s: t } })) } },
  });
  items.push(tokNode('gen-tokens-single', SINGLE_TOKENS.slice(1)));
  DOUBLE_TOKENS.forEach((d, k) => items.push(tokNode(`gen-tokens-dict${k}`, d)));
  const nib = (n) => '0123456789-.'.repeat(20).slice(0, n);
  const hex = (n) => '0123456789ABCDEF'.repeat(10).slice(0, n);
  const packs = [];
  for (const n of [1, 2, 3, 126, 127, 128, 129]) packs.push(['n' + n, S(nib(n))], ['h' + n, S(hex(n))]);
  items.push({ name: 'gen-packed-lengths', node: { tag: 'packed', attrs: packs } });
  for (const a of [126, 127, 128]) {
    const attrs = [];
    for (let i = 0; i < a; i++) attrs.push(['k' + i, S('v' + i)]);
    items.push({ name: `gen-attrs-${a}-with-content`, node: { tag: 'wide', attrs, content: { b: Buffer.from('x') } } });
    items.push({ name: `gen-attrs-${a}-no-content`, node: { tag: 'wide', attrs: attrs.slice() } });
  }
  for (const n of [254, 255, 256, 257, 65536 >> 6]) {
    items.push({ name: `gen-children-${n}`, node: { tag: 'many', attrs: [], content: { l: Array.from({ length: n }, (_, i) => ({ tag: 'c', attrs: [['i', S(String(i))]] })) } } });
  }
  items.push({ name: 'gen-raw-string-lengths', node: { tag: 'raw', attrs: [['a', S('x'.repeat(255))], ['b', S('y'.repeat(256))]], content: { s: 'z'.repeat(70000) } } });
  return items;
}

// Coverage of the random trees (scanned from the trees, not the generator).
function coverage(trees) {
  const c = {};
  const inc = (k) => { c[k] = (c[k] || 0) + 1; };
  const dictOf = new Map();
  DOUBLE_TOKENS.forEach((d, k) => d.forEach((t) => dictOf.set(t, k)));
  const str = (s, where) => {
    const f = stringForm(s);
    if (f === 'token') inc(dictOf.has(s) ? `token-dict${dictOf.get(s)}` : 'token-single');
    else if (f === 'nibble' || f === 'hex') { inc(`${f}-${s.length % 2 ? 'odd' : 'even'}`); if (s.length === 127) inc(`${f}-len127`); }
    else if (s === '') inc(`empty-${where}`);
    else {
      if (/^[0-9.-]{128}$/.test(s)) inc('nibble-len128-raw');
      if (/^[0-9A-F]{128}$/.test(s)) inc('hex-len128-raw');
      inc(/[^\x00-\x7f]/.test(s) ? 'raw-utf8-multibyte' : 'raw-ascii');
      if (Buffer.byteLength(s) >= 256) inc('raw-string-binary20');
    }
  };
  const jid = (j) => {
    inc(j.user === '' ? `jid-empty-user@${j.server}` : `jid@${j.server}${j.device ? '-device' : ''}`);
  };
  const walk = (n) => {
    str(n.tag, 'tag');
    if (n.attrs.length >= 127) inc('attrs>=127');
    for (const [k, v] of n.attrs) { str(k, 'key'); if (v.j) jid(v.j); else str(v.s, 'attr'); }
    const ct = n.content;
    if (!ct) { inc('content-none'); return; }
    if (ct.b) {
      const L = ct.b.length;
      inc(L === 0 ? 'bytes-0' : L < 256 ? 'bytes-binary8' : L < 1 << 20 ? 'bytes-binary20' : 'bytes-binary32');
      if (L === 255 || L === 256) inc(`bytes-${L}`);
      if (L === 0xfffff) inc('bytes-0xfffff');
      if (L === 0x100000) inc('bytes-0x100000');
    } else if (ct.l) {
      inc(ct.l.length === 0 ? 'list-empty' : ct.l.length < 256 ? 'list8' : 'list16');
      ct.l.forEach(walk);
    } else if (ct.j) { inc('content-jid'); jid(ct.j); }
    else { inc('content-string'); str(ct.s, 'content'); }
  };
  trees.forEach(walk);
  return c;
}
const REQUIRED_COVERAGE = [
  'token-single', 'token-dict0', 'token-dict1', 'token-dict2', 'token-dict3',
  'nibble-odd', 'nibble-even', 'nibble-len127', 'hex-odd', 'hex-even', 'hex-len127', 'nibble-len128-raw', 'hex-len128-raw',
  'raw-ascii', 'raw-utf8-multibyte', 'raw-string-binary20',
  ...SERVERS.map((s) => `jid@${s}`), ...[...AD_SERVERS].map((s) => `jid@${s}-device`), 'jid-empty-user@s.whatsapp.net',
  'content-none', 'content-string', 'content-jid', 'empty-content', 'bytes-0', 'bytes-binary8', 'bytes-binary20', 'bytes-255', 'bytes-256',
  'list-empty', 'list8', 'list16', 'attrs>=127',
];
const REQUIRED_BIG = ['bytes-binary32', 'bytes-0xfffff', 'bytes-0x100000']; // trees 1999, 3999

// ---------------------------------------------------------------------------
// main

async function main() {

  const corpusAll = loadCorpus();
  const shapes = corpusAll.filter((c) => c.entry.shape);
  const corpus = corpusAll.filter((c) => !c.entry.shape).concat(generatedCorpus());

  const gen = makeGenerator(makeRng(SEED));
  const random = [];
  for (let i = 0; i < TREES; i++) random.push({ name: `random#${i}`, node: gen.genTree(i) });

  if (process.env.DUMP !== undefined) {
    const t = random[parseInt(process.env.DUMP, 10)];
    if (!t) { console.error('no such tree'); process.exit(2); }
    out(toToolLine(t.node));
    process.exit(0);
  }

  if (!toolUsable(TOOL)) {
    out('Bail out! WA_BIN_JSON not set' + (TOOL ? ` (${TOOL} is not an executable file)` : ''));
    process.exit(1);
  }

  const shapeNames = [...new Set(shapes.map((s) => s.entry.shape))];
  const docExamples = corpus.filter((c) => c.entry && c.entry.doc_hex);
  const PLAN = 1 + 2 + 7 + docExamples.length + 7 + 1 + 1 + shapeNames.length;
  out('TAP version 13');
  out(`1..${PLAN}`);
  diag(`SEED=${SEED} TREES=${TREES} WA_BIN_JSON=${TOOL}`);
  diag(`corpus: ${corpus.length} trees (nodes.json + generated), ${shapes.length} shape entries in ${shapeNames.length} shapes, ${random.length} random trees`);

  // 1. library versions
  {
    const req = createRequire(import.meta.url);
    const ver = (p) => { try { return JSON.parse(fs.readFileSync(req.resolve(p), 'utf8')).version; } catch { return null; } };
    const bv = ver('@whiskeysockets/baileys/package.json');
    let rv = null;
    try { rv = JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules/whatsapp-rust-bridge/package.json'), 'utf8')).version; } catch { /* */ }
    const ok = bv === '7.0.0-rc14' && rv === '0.5.4' && SINGLE_TOKENS.length === 236 && DOUBLE_TOKENS.every((d) => d.length === 256);
    report(ok, `reference codecs loaded: Baileys ${bv}, whatsapp-rust-bridge ${rv}, token tables 236 + 4x256`, ok ? [] : ['expected Baileys 7.0.0-rc14 and bridge 0.5.4; run npm ci']);
  }

  function parseToolJson(line) {
    if (line === undefined) return { error: 'no output line' };
    try { return JSON.parse(line); } catch { return { error: `not JSON: ${line.slice(0, 80)}` }; }
  }
  const toolView = (line) => {
    const d = parseToolJson(line);
    if (d.error !== undefined || !d.tag) return { error: d.error ?? 'no tag', offset: d.offset };
    try { return viewOfTyped(d); } catch (e) { return { error: 'unreadable: ' + e.message }; }
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // Checks per group; trees are checked as the tool's output arrives, and
  // the random trees' data is dropped once checked.
  const mkGroup = (label) => ({ label, c1: check(), c2: check(), c3: check(), c4: check(), c5: check(), c6: check() });
  const G = { corpus: mkGroup('corpus'), random: mkGroup(`${TREES} random trees (SEED=${SEED})`) };
  for (const r of corpus) r.g = G.corpus;
  for (const r of random) r.g = G.random;
  const cov = coverage(random.map((r) => r.node)); // before the trees are dropped

  // Reference encodings, and Baileys vs the bridge.
  const all = [...corpus, ...shapes, ...random];
  for (const r of all) {
    const lib = r.entry && r.entry.lib_input ? r.entry.lib_input : toLib(r.node);
    r.bl = tryEncode(baileysEncode, lib);
    r.br = tryEncode(bridgeEncode, lib);
    if (Buffer.isBuffer(r.bl) && Buffer.isBuffer(r.br) && r.bl.equals(r.br)) r.br = r.bl;
    if (!r.g) continue;
    if (isErr(r.bl) || isErr(r.br)) r.g.c1.fail(r.name, `Baileys ${isErr(r.bl) ? errStr(r.bl) : 'ok'}, bridge ${isErr(r.br) ? errStr(r.br) : 'ok'}`);
    else if (r.bl === r.br) r.g.c1.pass();
    else r.g.c1.fail(r.name, hexDiff(r.bl.toString('hex'), r.br.toString('hex')));
  }
  diag(`reference encoders done (${elapsed()})`);

  // wachat encode: one process for everything.
  const refBytes = (r) => (Buffer.isBuffer(r.bl) ? r.bl : Buffer.isBuffer(r.br) ? r.br : null);
  const encRes = await runTool('encode', all.length, (i) => toToolLine(all[i].node), (i, line) => {
    const r = all[i];
    r.encSeen = true;
    const waHex = line.length && /^[0-9a-f]+$/.test(line) ? line : null;
    if (r.g !== G.random) { r.wa = line; r.waHex = waHex; } // corpus and shapes: kept for later checks
    if (!r.g) return;
    const ref = refBytes(r);
    if (!ref) { r.g.c2.fail(r.name, 'no reference bytes'); return; }
    const want = ref.toString('hex');
    if (line === want) { r.g.c2.pass(); r.waSame = true; return; }
    r.g.c2.fail(r.name, waHex ? hexDiff(want, line) : `wachat said: ${line.slice(0, 120)}`);
    if (waHex) r.waBuf = Buffer.from(waHex, 'hex');
  });
  toolRunReport('encode', encRes, all.length);
  for (const r of all) if (r.g && !r.encSeen) r.g.c2.fail(r.name, 'no output line');
  diag(`wachat encode done (${elapsed()})`);

  // wachat decode: Baileys' bytes (and the bridge's when they differ),
  // compressed frames, the shapes' pinned bytes, malformed frames.
  const decodeJobs = []; // {hex | buf, fn(line)}
  const addDecode = (src, fn) => decodeJobs.push(typeof src === 'string' ? { hex: src, fn } : { buf: src, fn });
  const deflateFrame = (buf) => Buffer.concat([Buffer.from([2]), zlib.deflateSync(buf.subarray(1))]);
  const wantTyped = (r) => (r.wantTyped ??= JSON.stringify(expectedTyped(r.node)));
  const checkDecoded = (r, who, slot) => (line) => {
    r[slot + 'Seen'] = true;
    if (r[slot]) return;
    const got = toolView(line);
    if (got.error !== undefined) { r[slot] = `decoding ${who}: error ${got.error} at ${got.offset}`; return; }
    const g = JSON.stringify(got);
    if (g !== wantTyped(r)) r[slot] = `decoding ${who}: ${viewDiff(JSON.parse(wantTyped(r)), got)}`;
  };
  const compressed = new Set([...corpus, ...random.slice(0, COMPRESSED_RANDOM)]);
  for (const r of [...corpus, ...random]) {
    if (Buffer.isBuffer(r.bl)) {
      addDecode(r.bl, checkDecoded(r, "Baileys' bytes", 'c3bad'));
      if (compressed.has(r)) {
        r.zframe = deflateFrame(r.bl);
        addDecode(r.zframe, checkDecoded(r, 'the compressed frame', 'c6bad'));
      }
    }
    if (Buffer.isBuffer(r.br) && r.br !== r.bl) addDecode(r.br, checkDecoded(r, "the bridge's bytes", 'c3bad'));
  }
  for (const r of shapes) {
    const ex = r.entry.expect || {};
    if (ex.baileys_hex) addDecode(ex.baileys_hex, (line) => { r.waFromBl = line; });
    if (ex.bridge_hex) addDecode(ex.bridge_hex, (line) => { r.waFromBr = line; });
    if (Buffer.isBuffer(r.bl)) {
      r.zframe = deflateFrame(r.bl);
      addDecode(r.bl, (line) => { r.waFromBlNow = line; });
      addDecode(r.zframe, (line) => { r.waFromZ = line; });
    }
  }
  const MALFORMED = [
    ['no node after the flags byte', '00'],
    ['truncated list header', '00f8'],
    ['list size 0 (no tag)', '00f800'],
    ['empty tag', '00f801fc00'],
    ['unused tag byte 0xF0', '00f801f0'],
    ['truncated BINARY_20 length', '00f802fc0161fd0001'],
    ['BINARY_8 longer than the data', '00f802fc0161fc0568656c'],
    ['invalid nibble 0xC', '00f803fc0161fc016bff01cc'],
    ['LIST_16 child count beyond the data', '00f802fc0161f90005f80119'],
    ['trailing byte after the node ([WM]/[RS] reject)', '00f801190000'],
    ['corrupt zlib body', '02ffff0000'],
    ['not hex', 'zz'],
  ];
  const malformedResults = [];
  for (const [desc, hex] of MALFORMED) addDecode(hex, (line) => malformedResults.push([desc, hex, line]));
  // Valid encodings that wachat's encoder never writes but peers do.
  const J0 = (user, server, device = 0) => ({ j: { user, server, device, agent: 0, integrator: 0 } });
  const UNUSUAL = [
    ['FF 00 (empty nibble string) as an attribute value, written by whatsmeow for ""', '00f803fc0161fc016bff00',
      { tag: 'a', attrs: [['k', { s: '' }]] }],
    ['FF 00 as content', '00f802fc0161ff00', { tag: 'a', attrs: [], content: { s: '' } }],
    ["AD_JID with device 0 on s.whatsapp.net (Baileys writes it for 'user:0@s.whatsapp.net')", '00f803fc0161fc016bf70000ff8612345678901f',
      { tag: 'a', attrs: [['k', J0('12345678901', 's.whatsapp.net')]] }],
    ["AD_JID with device 0 on lid", '00f803fc0161fc016bf70100ff8612345678901f', { tag: 'a', attrs: [['k', J0('12345678901', 'lid')]] }],
  ];
  const unusualResults = [];
  for (const [desc, hex, want] of UNUSUAL) addDecode(hex, (line) => unusualResults.push([desc, hex, want, line]));
  const SANITY_HEX = '00f8091908ff0461b127a11657042911fa0003'; // after the errors: the tool must still decode
  let sanityLine;
  addDecode(SANITY_HEX, (line) => { sanityLine = line; });

  const decRes = await runTool('decode', decodeJobs.length,
    (i) => { const j = decodeJobs[i]; return j.hex !== undefined ? j.hex : j.buf.toString('hex'); },
    (i, line) => decodeJobs[i].fn(line));
  toolRunReport('decode', decRes, decodeJobs.length);
  decodeJobs.length = 0;
  diag(`wachat decode done (${elapsed()})`);

  async function finishGroup(g, set, release) {
    for (const r of set) {
      if (!r.c3badSeen) g.c3.fail(r.name, 'no decode result');
      else if (r.c3bad) g.c3.fail(r.name, r.c3bad);
      else g.c3.pass();
      // the references decode wachat's bytes
      const wbuf = r.waSame ? refBytes(r) : r.waBuf;
      if (!wbuf) {
        g.c4.fail(r.name, 'wachat produced no bytes');
        g.c5.fail(r.name, 'wachat produced no bytes');
      } else {
        const wb = expectedBaileys(r.node), gb = baileysDecodeView(wbuf);
        if (same(wb, gb)) g.c4.pass(); else g.c4.fail(r.name, gb.error ? `Baileys error: ${gb.error}` : viewDiff(wb, gb));
        const wr = expectedBridge(r.node), gr = bridgeDecodeView(wbuf);
        if (same(wr, gr)) g.c5.pass(); else g.c5.fail(r.name, gr.error ? `bridge error: ${gr.error}` : viewDiff(wr, gr));
      }
      // compressed frames: every decoder as on the uncompressed frame
      if (r.zframe) {
        const problems = [];
        const bz = await baileysDecodeFrameView(r.zframe), bu = baileysDecodeView(r.bl);
        if (!same(bz, bu)) problems.push(`Baileys: ${bz.error ? bz.error : viewDiff(bu, bz)}`);
        const rz = bridgeDecodeView(r.zframe), ru = bridgeDecodeView(r.bl);
        if (!same(rz, ru)) problems.push(`bridge: ${rz.error ? rz.error : viewDiff(ru, rz)}`);
        if (r.c6bad) problems.push(`wachat: ${r.c6bad}`);
        else if (!r.c6badSeen) problems.push('wachat: no decode result');
        if (problems.length) g.c6.fail(r.name, problems.join('; ')); else g.c6.pass();
      }
      if (release) { r.node = r.bl = r.br = r.waBuf = r.zframe = r.wantTyped = null; }
    }
    g.c1.done(`${g.label}: Baileys encoder == bridge encoder`);
    g.c2.done(`${g.label}: wachat encoder == Baileys == bridge, byte for byte`);
    g.c3.done(`${g.label}: wachat decoder reads Baileys'/bridge's bytes back to the typed tree`);
    g.c4.done(`${g.label}: Baileys decoder reads wachat's bytes as expected`);
    g.c5.done(`${g.label}: bridge decoder reads wachat's bytes as expected`);
    g.c6.done(`${g.label}: compressed frames (0x02 + zlib) decode as the uncompressed ones in all three decoders`);
  }

  await finishGroup(G.corpus, corpus, false);

  // token tables, protocol.md 4.7 examples
  {
    const c = check();
    for (const r of corpus.filter((x) => x.tokens)) {
      if (!Buffer.isBuffer(r.bl) || r.br !== r.bl) c.fail(r.name, 'Baileys and bridge disagree');
      else if (!r.waSame) c.fail(r.name, 'encode: ' + hexDiff(r.bl.toString('hex'), r.wa));
      else if (!r.c3badSeen || r.c3bad) c.fail(r.name, 'decode: ' + (r.c3bad || 'no result'));
      else c.pass();
    }
    c.done('every single-byte token (235) and dictionary token (4x256) is encoded and decoded like Baileys and the bridge do');
  }
  for (const r of docExamples) {
    const want = r.entry.doc_hex.toLowerCase();
    const d = [];
    if (r.wa !== want) d.push('wachat: ' + hexDiff(want, r.wa));
    if (!Buffer.isBuffer(r.bl) || r.bl.toString('hex') !== want) d.push('Baileys: ' + hexDiff(want, Buffer.isBuffer(r.bl) ? r.bl.toString('hex') : errStr(r.bl)));
    if (!Buffer.isBuffer(r.br) || r.br.toString('hex') !== want) d.push('bridge: ' + hexDiff(want, Buffer.isBuffer(r.br) ? r.br.toString('hex') : errStr(r.br)));
    report(d.length === 0, `protocol.md 4.7 worked example "${r.name}" encodes to the documented bytes`, d);
  }

  await finishGroup(G.random, random, true);
  diag(`random checks done (${elapsed()})`);

  // coverage
  {
    const missing = REQUIRED_COVERAGE.concat(REQUIRED_BIG).filter((k) => !cov[k]);
    const show = Object.keys(cov).sort().map((k) => `${k}=${cov[k]}`).join(' ');
    const lines = [];
    for (let i = 0; i < show.length; i += 110) lines.push(show.slice(i, i + 110));
    if (TREES < 5000) report(true, `random trees cover every required feature class # SKIP only ${TREES} trees (needs 5000)`, lines);
    else report(missing.length === 0, 'random trees cover every required feature class', missing.length ? [`missing: ${missing.join(', ')}`, ...lines] : lines);
  }

  // malformed input
  {
    const d = [];
    for (const [desc, hex, line] of malformedResults) {
      const got = parseToolJson(line);
      if (!(typeof got.error === 'string' && got.error.length && Number.isInteger(got.offset))) d.push(`${desc} (${hex}): expected {"error":…,"offset":N}, got ${String(line).slice(0, 100)}`);
    }
    const s = toolView(sanityLine);
    if (s.error !== undefined || s.tag !== 'iq') d.push(`a valid frame after the malformed ones did not decode: ${String(sanityLine).slice(0, 100)}`);
    report(d.length === 0, `wachat decoder answers each of ${MALFORMED.length} malformed frames with an error line and keeps going`, d);
  }

  // unusual but valid encodings
  {
    const d = [];
    for (const [desc, hex, want, line] of unusualResults) {
      const got = toolView(line);
      if (got.error !== undefined) d.push(`${desc} (${hex}): error ${got.error} at ${got.offset}`);
      else if (!same(viewOfTyped(want), got)) d.push(`${desc} (${hex}): ${viewDiff(viewOfTyped(want), got)}`);
    }
    report(d.length === 0, `wachat decoder accepts ${UNUSUAL.length} valid encodings it never writes itself (FF 00 empty string, AD_JID device 0)`, d);
  }

  // named disagreement shapes
  // Each entry's "expect" pins what each codec does; a missing field is not checked.
  for (const shape of shapeNames) {
    const entries = shapes.filter((s) => s.entry.shape === shape);
    const d = [];
    for (const r of entries) {
      const ex = r.entry.expect || {};
      const hexOf = (x) => (Buffer.isBuffer(x) ? x.toString('hex') : errStr(x));
      if (ex.wachat_hex !== undefined && r.wa !== ex.wachat_hex) d.push(`${r.name}: wachat encoder: ${hexDiff(ex.wachat_hex, r.wa)}`);
      if (ex.baileys_hex !== undefined && hexOf(r.bl) !== ex.baileys_hex) d.push(`${r.name}: Baileys encoder changed: ${hexDiff(ex.baileys_hex, hexOf(r.bl))}`);
      if (ex.bridge_hex !== undefined && hexOf(r.br) !== ex.bridge_hex) d.push(`${r.name}: bridge encoder changed: ${hexDiff(ex.bridge_hex, hexOf(r.br))}`);
      const src = ex.wachat_hex !== undefined ? ex.wachat_hex : r.waHex; // decode the pinned bytes: independent of the C encoder
      if (ex.baileys_reads_wachat !== undefined) {
        const got = baileysDecodeView(Buffer.from(src, 'hex'));
        if (!same(ex.baileys_reads_wachat, got)) d.push(`${r.name}: Baileys decoding wachat's bytes: ${got.error ? got.error : viewDiff(ex.baileys_reads_wachat, got)}`);
      }
      if (ex.bridge_reads_wachat !== undefined) {
        const got = bridgeDecodeView(Buffer.from(src, 'hex'));
        const want = ex.bridge_reads_wachat;
        const okv = want.error !== undefined ? got.error !== undefined && got.error.includes(want.error) : same(want, got);
        if (!okv) d.push(`${r.name}: bridge decoding wachat's bytes: ${got.error ? got.error : viewDiff(want, got)}`);
      }
      if (r.zframe) {
      // the compressed frame of Baileys' bytes decodes as the plain one, in all three decoders
      const bz = await baileysDecodeFrameView(r.zframe), bu = baileysDecodeView(r.bl);
      if (!same(bz, bu)) d.push(`${r.name}: compressed frame, Baileys: ${bz.error ? bz.error : viewDiff(bu, bz)}`);
      const rz = bridgeDecodeView(r.zframe), ru = bridgeDecodeView(r.bl);
      if (!same(rz, ru)) d.push(`${r.name}: compressed frame, bridge: ${rz.error ? rz.error : viewDiff(ru, rz)}`);
      const wz = toolView(r.waFromZ), wu = toolView(r.waFromBlNow);
      if (!same(wz, wu)) d.push(`${r.name}: compressed frame, wachat: ${wz.error ? wz.error : viewDiff(wu, wz)}`);
    }
    for (const [field, line, who] of [['wachat_reads_baileys', r.waFromBl, 'Baileys'], ['wachat_reads_bridge', r.waFromBr, 'bridge']]) {
        if (ex[field] === undefined) continue;
        const want = viewOfTyped(ex[field]);
        const got = toolView(line);
        if (got.error !== undefined) d.push(`${r.name}: wachat decoding ${who}'s bytes: error ${got.error} at ${got.offset}`);
        else if (!same(want, got)) d.push(`${r.name}: wachat decoding ${who}'s bytes: ${viewDiff(want, got)}`);
      }
    }
    const note = entries.map((e) => e.entry.note).find(Boolean);
    report(d.length === 0, `disagreement shape ${shape}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} behave as documented`, [...(note ? [note] : []), ...d]);
  }

  diag(`${passed} passed, ${failed} failed (${elapsed()})`);
  if (testNo !== PLAN) diag(`internal: planned ${PLAN} tests, ran ${testNo}`);
  process.exit(failed === 0 && testNo === PLAN ? 0 : 1);
}

// Run only when executed (bench-codec.mjs imports the helpers above).
let invoked = '';
try { invoked = pathToFileURL(fs.realpathSync(process.argv[1])).href; } catch { /* not run as a script */ }
if (invoked === pathToFileURL(fs.realpathSync(fileURLToPath(import.meta.url))).href) {
  try {
    await main();
  } catch (e) {
    out(`Bail out! internal error: ${(e && e.stack) || e}`.split('\n')[0]);
    diag(String((e && e.stack) || e));
    process.exit(1);
  }
}
