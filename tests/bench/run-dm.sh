#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-dm.sh -- what `make bench-dm` (and `make bench`) runs for
# the 1:1 message benches of perf.md (S1 dm_send_encode, R1 dm_recv_steady,
# R4 receive_store_msg): tests/bench/bench-dm pinned to CPU 1 with
# whatsapp-rust's CI allocator settings, callgrind instructions per
# operation (difference method, as run.sh), the peers
# (bench-dm-peers.mjs: whatsapp-rust-bridge and Baileys, in-memory stores,
# so their times go on the *_mem lines, the same scope: "ratio" of the
# medians as perf.md 3.0 asks, and "ratio_min" of the fastest samples,
# which a loaded machine disturbs less), and a summary
# against perf.md's anchors and targets on stderr.  One JSON line per bench
# on stdout.
#
# Environment: top_srcdir, top_builddir (default .), NODE (default node),
# BENCH_IR ("none" skips callgrind; else NAME:N ...), BENCH_NO_PIN,
# BENCH_ARGS (extra bench-dm options, e.g. --samples 5).

srcdir="${top_srcdir:-.}"
builddir="${top_builddir:-.}"
node="${NODE:-node}"
bench="$builddir/tests/bench/bench-dm"
ir_benches="${BENCH_IR:-dm_send_encode:200 dm_send_encode_mem:200 dm_recv_steady:200 dm_recv_steady_mem:200 receive_store_msg:100}"

say() {
	echo "bench-dm: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench-dm')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench-dm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

bench_malloc_env

bench_pin

say "running bench-dm${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bench" ${BENCH_ARGS:-} >"$tmp/c.jsonl"; then
	say "bench-dm failed"
	exit 1
fi

# Instructions per operation: collected inside bench_dm_send_encode_op,
# bench_dm_recv_steady_op or bench_receive_store_msg_op; (Ir at 2N - Ir at
# N) / 2N (bench-dm runs 2N operations at --iters N --samples 1) removes
# the setup, the warm-up and the contact's encryptions.
: >"$tmp/ir.txt"
if [ "$ir_benches" != none ] && command -v valgrind >/dev/null 2>&1; then
	say "counting instructions with callgrind ($ir_benches)"
	for spec in $ir_benches; do
		name=${spec%:*}
		iters=${spec##*:}
		case "$name" in
		dm_send_encode*)	fn=bench_dm_send_encode_op ;;
		dm_recv_steady*)	fn=bench_dm_recv_steady_op ;;
		*)			fn=bench_${name}_op ;;
		esac
		bench_ir "$name" "$iters" "$fn" 2 "" "$tmp" "$tmp/ir.txt" \
		    "$bench" || true
	done
elif [ "$ir_benches" != none ]; then
	say "valgrind not found: no instruction counts"
fi

: >"$tmp/peers.jsonl"
if ! command -v "$node" >/dev/null 2>&1; then
	say "node not found: no peer comparison"
elif [ ! -d "$srcdir/tests/interop/node_modules/whatsapp-rust-bridge" ] ||
    [ ! -d "$srcdir/tests/interop/node_modules/libsignal" ]; then
	say "tests/interop/node_modules is missing (npm ci in tests/interop):" \
	    "no peer comparison"
else
	say "running the peers${pin:+ ($pin)}"
	# libsignal (JS) logs session changes on stdout: keep only JSON.
	# shellcheck disable=SC2086
	$pin "$node" "$srcdir/tests/bench/bench-dm-peers.mjs" 2>"$tmp/p.err" |
	    grep '^{' >"$tmp/peers.jsonl" || say "the peers failed:" \
	    "$(cat "$tmp/p.err")"
fi

if ! command -v "$node" >/dev/null 2>&1; then
	cat "$tmp/c.jsonl"
	exit 0
fi
"$node" - "$tmp/c.jsonl" "$tmp/ir.txt" "$tmp/peers.jsonl" <<'EOF'
const fs = require('fs');
const [cFile, irFile, pFile] = process.argv.slice(2);
const lines = (f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim());
const ir = new Map(lines(irFile).map((l) => l.split(' ')).map(([k, v]) => [k, Number(v)]));
const peers = lines(pFile).map((l) => JSON.parse(l));
const ours = lines(cFile).map((l) => JSON.parse(l));
const FLAT = 'baileys';
for (const l of ours) {
  if (ir.has(l.name)) l.ir = ir.get(l.name);
  const base = l.name.replace(/_mem$/, '');
  if (l.name.endsWith('_mem')) {
    const ps = {};
    for (const p of peers.filter((p) => p.bench === base))
      ps[p.peer] = { median_ns: p.median_ns, min_ns: p.min_ns, ratio: Math.round((p.median_ns / l.median_ns) * 100) / 100,
        ratio_min: Math.round((p.min_ns / l.min_ns) * 100) / 100 };
    if (Object.keys(ps).length) {
      l.peers = ps;
      if (ps[FLAT]) { l.peer = FLAT; l.peer_median_ns = ps[FLAT].median_ns; l.ratio = ps[FLAT].ratio; }
    }
  }
  process.stdout.write(JSON.stringify(l) + '\n');
}
const get = (n) => ours.find((l) => l.name === n);
const out = [];
const chk = (what, v, okv) => out.push(`${okv === undefined ? 'n/a ' : okv ? 'ok  ' : 'MISS'} ${what}: ${v}`);
const us = (ns) => `${(ns / 1000).toFixed(1)} us`;
for (const n of ['dm_send_encode', 'dm_send_encode_mem']) {
  const l = get(n);
  if (!l) continue;
  chk(`S1 ${n} allocations < whatsapp-rust's 157 (issue 6 bar; ${l.store})`, `${l.allocs} (${l.allocs_excl_sqlite} outside SQLite), ${l.bytes} B`, l.allocs_excl_sqlite < 157);
  chk(`S1 ${n} bytes < 27.9 KB (B1)`, `${l.bytes} B (all process)`, l.bytes < 27900);
  chk(`S1 ${n} <= 20 allocations (perf.md target)`, l.allocs_excl_sqlite, l.allocs_excl_sqlite <= 20);
  chk(`S1 ${n} Ir <= 250 K`, l.ir ?? 'not measured', l.ir === undefined ? undefined : l.ir <= 250e3);
  chk(`S1 ${n} <= 12 us (median)`, us(l.median_ns), l.median_ns <= 12e3);
  if (l.peers) for (const [p, v] of Object.entries(l.peers)) chk(`S1 ${n} vs ${p} (same run, ratio > 1: wachat faster)`, `${v.ratio}x on medians, ${v.ratio_min}x on minimums (${us(v.median_ns)})`, undefined);
}
for (const n of ['dm_recv_steady', 'dm_recv_steady_mem']) {
  const l = get(n);
  if (!l) continue;
  chk(`R1 ${n} <= 8 us (median; ${l.store})`, us(l.median_ns), l.median_ns <= 8e3);
  chk(`R1 ${n} <= 6 allocations`, `${l.allocs} (${l.allocs_excl_sqlite} outside SQLite)`, l.allocs <= 6);
  chk(`R1 ${n} Ir <= 250 K`, l.ir ?? 'not measured', l.ir === undefined ? undefined : l.ir <= 250e3);
  if (l.peers) for (const [p, v] of Object.entries(l.peers)) chk(`R1 ${n} vs ${p} (same run, ratio > 1: wachat faster)`, `${v.ratio}x on medians, ${v.ratio_min}x on minimums (${us(v.median_ns)})`, undefined);
}
const r4 = get('receive_store_msg');
if (r4) {
  chk('R4 receive_store_msg <= 40 us median', us(r4.median_ns), r4.median_ns <= 40e3);
  chk('R4 receive_store_msg p99 <= 2 ms', us(r4.p99_ns), r4.p99_ns <= 2e6);
  chk('R4 receive_store_msg allocations (no target)', `${r4.allocs} (${r4.allocs_excl_sqlite} outside SQLite)`, undefined);
}
process.stderr.write('\n' + out.join('\n') + '\n');
EOF
