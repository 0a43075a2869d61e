#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/bench/gen-fixtures.mjs -- writes the fixtures of the codec benches
// (perf.md 3.1, C1 and C2) as typed-JSON nodes, one per line, each with a
// "name" first (tests/node-json.h has the format):
//
//   node tests/bench/gen-fixtures.mjs > tests/bench/codec-fixtures.jsonl
//
// Everything is derived from fixed seeds, so the output is byte-for-byte
// the same on every run; the .jsonl is kept in the tree and regenerated
// only when a fixture changes.  JIDs and numbers are made up.

// xorshift32; each fixture starts from its own seed.
function rng(seed) {
  let x = (seed >>> 0) || 1;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  return {
    next,
    below: (n) => next() % n,
    hex: (nbytes) => {
      let s = '';
      for (let i = 0; i < nbytes; i++) s += (next() & 0xff).toString(16).padStart(2, '0');
      return s;
    },
    digits: (n) => {
      let s = String(1 + (next() % 9));
      while (s.length < n) s += String(next() % 10);
      return s;
    },
    // An upper-case hex message id as WhatsApp Web writes them (3EB0...).
    msgId: (nchars) => {
      let s = '3EB0';
      while (s.length < nchars) s += '0123456789ABCDEF'[next() & 15];
      return s;
    },
  };
}

const PN = 's.whatsapp.net';
const s = (v) => ({ s: v });
const j = (user, server, device = 0) => ({ j: { user, server, device } });
const node = (tag, attrs, content) => (content === undefined ? { tag, attrs } : { tag, attrs, content });

// whatsapp-rust's bench_unmarshal_ack decodes a 30-byte ack written with a
// JID_PAIR, a NIBBLE_8 and a HEX_8; this one has the same shape and size:
// a 16-character hex id (HEX_8), a 13-digit user (NIBBLE_8) in a JID_PAIR.
function ack() {
  return node('ack', [
    ['id', s('3EB0C4F1A29D7E5B')],
    ['class', s('receipt')],
    ['to', j('4915112345678', PN)],
    ['type', s('read')],
  ]);
}

// A small iq with one child (the prekey count query).
function small() {
  return node('iq', [
    ['id', s('26165.33001-7')],
    ['xmlns', s('encrypt')],
    ['type', s('get')],
    ['to', j('', PN)],
  ], { l: [node('count', [])] });
}

// A pairwise fan-out: two users, four devices each, 128-byte ciphertexts.
function fanout8() {
  const r = rng(0x8f0a11);
  const users = [r.digits(11), r.digits(12)];
  const tos = [];
  for (let i = 0; i < 8; i++) {
    const dev = 1 + 7 * (i % 4) + (i >> 2);
    tos.push(node('to', [['jid', j(users[i >> 2], PN, dev)]], {
      l: [node('enc', [['v', s('2')], ['type', s('msg')]], { b: r.hex(128) })],
    }));
  }
  return node('message', [
    ['id', s(r.msgId(16))],
    ['to', j(users[0], PN)],
    ['type', s('text')],
  ], { l: [node('participants', [], { l: tos })] });
}

// A usync query result: 50 users with 1..5 devices each.
function usync() {
  const r = rng(0x05c0de);
  const users = [];
  for (let i = 0; i < 50; i++) {
    const ndev = 1 + r.below(5);
    const devs = [node('device', [['id', s('0')]])];
    for (let d = 1; d < ndev; d++) {
      devs.push(node('device', [
        ['id', s(String(d * 3 + r.below(3)))],
        ['key-index', s(String(1 + r.below(40)))],
      ]));
    }
    users.push(node('user', [['jid', j(r.digits(11 + r.below(3)), PN)]], {
      l: [node('devices', [], {
        l: [
          node('device-list', [], { l: devs }),
          node('key-index-list', [['ts', s(String(1700000000 + r.below(9000000)))]], { b: r.hex(40) }),
        ],
      })],
    }));
  }
  return node('iq', [
    ['from', j('', PN)],
    ['id', s('26165.33001-12')],
    ['type', s('result')],
  ], {
    l: [node('usync', [
      ['sid', s('sync_sid_query_' + r.digits(10))],
      ['index', s('0')],
      ['last', s('true')],
      ['mode', s('query')],
      ['context', s('message')],
    ], { l: [node('list', [], { l: users })] })],
  });
}

// One node with 2048 children of about 14 bytes (<user jid=.../>).
function children2048() {
  const r = rng(0x2048);
  const kids = [];
  for (let i = 0; i < 2048; i++) kids.push(node('user', [['jid', j(r.digits(11), PN)]]));
  return node('list', [], { l: kids });
}

// One node carrying 262144 bytes.
function bytes256k() {
  const r = rng(0x40000);
  return node('enc', [['v', s('2')], ['type', s('msg')]], { b: r.hex(262144) });
}

// A group message that distributes the sender key: n device JIDs, each with
// a 200-byte pkmsg, then the 160-byte skmsg for the group.  Members have
// one to three devices, as in group_fanout_benchmark.rs's shape.
function skdm(n, seed) {
  const r = rng(seed);
  const tos = [];
  while (tos.length < n) {
    const user = r.digits(11 + r.below(3));
    const ndev = Math.min(1 + r.below(3), n - tos.length);
    for (let d = 0; d < ndev; d++) {
      tos.push(node('to', [['jid', j(user, PN, d === 0 ? 0 : 1 + r.below(30))]], {
        l: [node('enc', [['v', s('2')], ['type', s('pkmsg')]], { b: r.hex(200) })],
      }));
    }
  }
  return node('message', [
    ['id', s(r.msgId(16))],
    ['to', j('120363' + r.digits(12), 'g.us')],
    ['type', s('text')],
  ], {
    l: [
      node('participants', [], { l: tos }),
      node('enc', [['v', s('2')], ['type', s('skmsg')]], { b: r.hex(160) }),
    ],
  });
}

const fixtures = [
  ['ack', ack()],
  ['small', small()],
  ['fanout8', fanout8()],
  ['usync', usync()],
  ['children2048', children2048()],
  ['bytes256k', bytes256k()],
  ['skdm8', skdm(8, 0x5d8)],
  ['skdm32', skdm(32, 0x5d32)],
  ['skdm128', skdm(128, 0x5d128)],
  ['skdm512', skdm(512, 0x5d512)],
];

for (const [name, n] of fixtures) process.stdout.write(JSON.stringify({ name, ...n }) + '\n');
