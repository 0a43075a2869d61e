#!/usr/bin/env node
// Peer timings for `make bench`: encode and decode of each fixture with
// Baileys' JS codec and with whatsapp-rust-bridge (Rust/WASM).
//
//   node bench-codec.mjs FIXTURES.jsonl [--iters N] [--samples S]
//
// FIXTURES.jsonl: one typed node per line (the format of README.md), each
// with a "name".  Prints one JSON line per fixture x peer x op:
//   {"fixture":"ack","peer":"baileys","op":"decode","median_ns":…,"min_ns":…,"iters":…,"samples":…}
// median_ns / min_ns are per operation: the median / minimum over the samples
// of (sample time / iters).  Each sample runs the op `iters` times in a row;
// iters is chosen per fixture x peer x op so that a sample takes ~20 ms
// (unless --iters is given).  Converting the typed JSON into each library's
// input, and producing the bytes that the decoders read, happens outside the
// timed region.
//
// What is timed:
//   baileys encode: encodeBinaryNode(node)            -> Buffer, 0x00 flags byte first
//   baileys decode: decodeDecompressedBinaryNode(bytes after the flags byte, constants)
//                   (the synchronous core of the async decodeBinaryNode, which
//                   would also strip the flags byte / inflate)
//   bridge  encode: encodeNode(node)                  -> Uint8Array, flags byte first
//   bridge  decode: decodeNode(bytes with the flags byte), then .free() of the
//                   returned WASM handle (the tree stays in WASM memory; no
//                   conversion to JS objects is included)

import fs from 'node:fs';

const { encodeBinaryNode, decodeDecompressedBinaryNode } = await import('@whiskeysockets/baileys/lib/WABinary/index.js');
const Bridge = await import('whatsapp-rust-bridge');
const { expandNode, toLib, WA_CONSTANTS } = await import('./codec-check.mjs'); // helpers only; its main() does not run on import

function usage(msg) {
  if (msg) process.stderr.write(`bench-codec: ${msg}\n`);
  process.stderr.write('usage: node bench-codec.mjs FIXTURES.jsonl [--iters N] [--samples S]\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let file = null, fixedIters = 0, samples = 15;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const num = () => {
    const v = Number(args[++i]);
    if (!Number.isInteger(v) || v < 1) usage(`${a} needs a positive integer`);
    return v;
  };
  if (a === '--iters') fixedIters = num();
  else if (a === '--samples') samples = num();
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else if (file === null) file = a;
  else usage('only one fixtures file');
}
if (!file) usage('no fixtures file');

const TARGET_NS = 20e6; // ~20 ms per sample
let sink = 0; // keeps results observable so no work is optimised away

function timeBatch(fn, iters) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iters; i++) sink ^= fn();
  return Number(process.hrtime.bigint() - t0);
}

// Warm up (~50 ms, so the JIT has settled), then find iters for ~20 ms.
function calibrate(fn) {
  const w0 = process.hrtime.bigint();
  let n = 0;
  while (n < 3 || Number(process.hrtime.bigint() - w0) < 50e6) { sink ^= fn(); n++; }
  let iters = 1, ns;
  for (;;) {
    ns = timeBatch(fn, iters);
    if (ns >= TARGET_NS / 4 || iters >= 1 << 24) break;
    iters *= 2;
  }
  iters = Math.max(1, Math.round((TARGET_NS * iters) / Math.max(ns, 1)));
  ns = timeBatch(fn, iters); // one correction step
  return Math.max(1, Math.round((TARGET_NS * iters) / Math.max(ns, 1)));
}

function measure(fn) {
  const iters = fixedIters || calibrate(fn);
  timeBatch(fn, iters); // one untimed sample to settle
  const per = [];
  for (let s = 0; s < samples; s++) per.push(timeBatch(fn, iters) / iters);
  per.sort((a, b) => a - b);
  const mid = per.length >> 1;
  const median = per.length % 2 ? per[mid] : (per[mid - 1] + per[mid]) / 2;
  return { median_ns: Math.round(median), min_ns: Math.round(per[0]), iters, samples };
}

const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
if (lines.length === 0) usage(`${file}: no fixtures`);
let status = 0;
for (let li = 0; li < lines.length; li++) {
  let raw, node;
  try {
    raw = JSON.parse(lines[li]);
    node = expandNode(raw);
  } catch (e) {
    process.stderr.write(`bench-codec: ${file}:${li + 1}: ${e.message}\n`);
    status = 1;
    continue;
  }
  const name = raw.name ?? `line${li + 1}`;
  // Inputs prepared outside the timed region.
  const lib = toLib(node);
  const peers = [];
  try {
    const blBytes = encodeBinaryNode(lib);
    const blBody = blBytes.subarray(1);
    peers.push(['baileys', 'encode', () => encodeBinaryNode(lib).length]);
    peers.push(['baileys', 'decode', () => decodeDecompressedBinaryNode(blBody, WA_CONSTANTS).tag.length]);
  } catch (e) {
    process.stderr.write(`bench-codec: ${name}: Baileys cannot encode it: ${e.message}\n`);
    status = 1;
  }
  try {
    const brBytes = Bridge.encodeNode(lib);
    peers.push(['bridge', 'encode', () => Bridge.encodeNode(lib).length]);
    peers.push(['bridge', 'decode', () => { const d = Bridge.decodeNode(brBytes); d.free(); return 1; }]);
  } catch (e) {
    process.stderr.write(`bench-codec: ${name}: the bridge cannot encode it: ${(e && e.message) || e}\n`);
    status = 1;
  }
  for (const [peer, op, fn] of peers) {
    try {
      const r = measure(fn);
      process.stdout.write(JSON.stringify({ fixture: name, peer, op, ...r }) + '\n');
    } catch (e) {
      process.stderr.write(`bench-codec: ${name} ${peer} ${op}: ${(e && e.message) || e}\n`);
      status = 1;
    }
  }
}
globalThis.__benchSink = sink;
process.exit(status);
