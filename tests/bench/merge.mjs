#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/bench/merge.mjs -- adds the peers' times to the C bench's lines
// (tests/bench/run.sh):
//
//   node merge.mjs C.jsonl PEERS.jsonl
//
// C.jsonl holds one line per bench (tests/bench/bench, with "ir" already
// added); PEERS.jsonl one line per fixture, peer and op, as
// tests/interop/bench-codec.mjs prints them.  Each codec_decode/<fixture>
// and codec_encode/<fixture> line gains "peers": {PEER: {"median_ns",
// "ratio"}}, and, for Baileys, perf.md 3.0's flat "peer", "peer_median_ns"
// and "ratio".  A ratio is the peer's median over ours: above 1, wachat is
// faster.  The merged lines go to stdout, a summary with perf.md's C1/C2
// targets to stderr.

import fs from 'node:fs';

const FLAT_PEER = 'baileys';
const OPS = { codec_decode: 'decode', codec_encode: 'encode' };

function readLines(path) {
  if (!path || !fs.existsSync(path)) return [];
  return fs.readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      process.stderr.write(`merge: skipping a line of ${path} that is not JSON\n`);
      return [];
    }
  });
}

const ratio = (peer, ours) => Math.round((peer / ours) * 100) / 100;

const ours = readLines(process.argv[2]);
const peerLines = readLines(process.argv[3]);
const peerTimes = new Map(); // "decode/ack" -> Map(peer -> line)
for (const p of peerLines) {
  if (typeof p.median_ns !== 'number' || !p.fixture || !p.peer || !p.op) continue;
  const key = `${p.op}/${p.fixture}`;
  if (!peerTimes.has(key)) peerTimes.set(key, new Map());
  peerTimes.get(key).set(p.peer, p);
}

for (const line of ours) {
  const [kind, fixture] = line.name.split('/');
  const found = OPS[kind] && peerTimes.get(`${OPS[kind]}/${fixture}`);
  if (found) {
    const peers = {};
    for (const [peer, p] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
      peers[peer] = { median_ns: p.median_ns, ratio: ratio(p.median_ns, line.median_ns) };
    }
    if (peers[FLAT_PEER]) {
      line.peer = FLAT_PEER;
      line.peer_median_ns = peers[FLAT_PEER].median_ns;
      line.ratio = peers[FLAT_PEER].ratio;
    }
    line.peers = peers;
  }
  process.stdout.write(JSON.stringify(line) + '\n');
}

// ---------------------------------------------------------------------------
// The summary: a table, then perf.md's C1/C2 targets.

const byName = new Map(ours.map((l) => [l.name, l]));
const fmt = (v, d = 0) => (v === undefined ? '-' : Number(v).toFixed(d));
const peerNames = [...new Set(peerLines.map((p) => p.peer))].sort();
const err = (s) => process.stderr.write(s + '\n');

err('');
err(['bench'.padEnd(28), 'median_ns'.padStart(11), 'min_ns'.padStart(11), 'ir'.padStart(7),
  'allocs'.padStart(6), 'MB/s'.padStart(9), ...peerNames.map((p) => `x${p}`.padStart(9))].join(' '));
for (const l of ours) {
  err([l.name.padEnd(28), fmt(l.median_ns, 1).padStart(11), fmt(l.min_ns, 1).padStart(11),
    fmt(l.ir).padStart(7), fmt(l.allocs).padStart(6), fmt(l.mb_s).padStart(9),
    ...peerNames.map((p) => fmt(l.peers?.[p]?.ratio, 2).padStart(9))].join(' '));
}

const checks = [];
const check = (what, value, ok) => checks.push(`${ok === undefined ? 'n/a ' : ok ? 'ok  ' : 'MISS'} ${what}: ${value}`);
const get = (name) => byName.get(name);
const ack = get('codec_decode/ack');
if (ack) {
  check('C1 ack decode <= 800 Ir', ack.ir ?? 'not measured', ack.ir === undefined ? undefined : ack.ir <= 800);
  check('C1 ack decode 0 allocations', ack.allocs, ack.allocs === 0);
}
const fan = get('codec_decode/fanout8');
if (fan) check('C1 fanout8 decode <= 500 ns (median)', fan.median_ns, fan.median_ns <= 500);
const kids = get('codec_decode/children2048');
if (kids) check('C1 children2048 decode >= 800 MB/s', kids.mb_s, kids.mb_s >= 800);
const decAllocs = ours.filter((l) => l.name.startsWith('codec_decode/') && l.allocs !== 0).map((l) => l.name);
check('C1 decode 0 allocations (all fixtures)', decAllocs.length ? decAllocs.join(' ') : 'all 0', decAllocs.length === 0);
const encAllocs = ours.filter((l) => l.name.startsWith('codec_encode/') && l.allocs !== 0).map((l) => l.name);
check('C2 encode 0 allocations (all fixtures)', encAllocs.length ? encAllocs.join(' ') : 'all 0', encAllocs.length === 0);
const rt = get('codec_roundtrip/small');
if (rt) check('C2 roundtrip small <= 150 ns (median)', rt.median_ns, rt.median_ns <= 150);

// Linear in width: least squares of median ns on the number of recipients.
const widths = ours.map((l) => [l, /^codec_encode\/skdm(\d+)$/.exec(l.name)]).filter(([, m]) => m).map(([l, m]) => [Number(m[1]), l.median_ns]);
if (widths.length >= 2) {
  const n = widths.length;
  const mx = widths.reduce((s, [x]) => s + x, 0) / n;
  const my = widths.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = widths.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = widths.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  const per = widths.map(([x, y]) => `${x}: ${(y / x).toFixed(0)}`).join(', ');
  check('C2 SKDM encode linear in width, slope ns/recipient', `${slope.toFixed(1)} (ns per recipient at ${per})`, undefined);
}
// perf.md P1-P3 (issue 4's bar: prekey_store_812 <= 1 ms).
const ms = (l) => `${(l.median_ns / 1e6).toFixed(2)} ms (min ${(l.min_ns / 1e6).toFixed(2)})`;
const gen = get('prekey_gen_812');
if (gen) {
  check('P1 prekey_gen_812 <= 20 ms on one core (median)', ms(gen), gen.median_ns <= 20e6);
  check('P1 prekey_gen_812 <= 2 allocations', gen.allocs, gen.allocs <= 2);
  if (gen.ir !== undefined)
    check('P1 Ir per key (whatsapp-rust dalek >= 176 K, derived)', Math.round(gen.ir / gen.keys), undefined);
}
const gen2 = get('prekey_gen_812_2t');
if (gen2) check(`P1 prekey_gen_812_2t <= 11 ms wall (${gen2.threads} threads, ${gen2.cpus} CPUs)`, ms(gen2), gen2.median_ns <= 11e6);
for (const name of ['prekey_gen_812_ref10', 'prekey_gen_812_ref10_2t']) {
  const l = get(name);
  if (l) check(`P1 what-if ${name} (libsignal ref10 keygen)`, ms(l), undefined);
}
const st = get('prekey_store_812');
if (st) {
  check('P2 prekey_store_812 <= 1.0 ms (issue 4; whatsapp-rust SQLite 8.0 ms)', ms(st), st.median_ns <= 1e6);
  check('P2 prekey_store_812 <= 3 allocations outside SQLite', `${st.allocs_excl_sqlite} (${st.allocs} with SQLite)`, st.allocs_excl_sqlite <= 3);
}
for (const name of ['prekey_connect_path', 'prekey_connect_path_2t', 'prekey_connect_path_tuned']) {
  const l = get(name);
  if (!l) continue;
  check(`P3 ${name} <= 13 ms wall`, ms(l), l.median_ns <= 13e6);
  check(`P3 ${name} <= 10 allocations outside SQLite`, `${l.allocs_excl_sqlite} (${l.allocs} with SQLite)`, l.allocs_excl_sqlite <= 10);
}
err('');
for (const c of checks) err(c);
