#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run.sh -- what `make bench` runs (perf.md 3.0): the C bench
# pinned to CPU 1 with whatsapp-rust's CI allocator settings, callgrind
# instruction counts per operation for a few benches (difference method),
# the Baileys and whatsapp-rust-bridge peers (tests/interop/bench-codec.mjs),
# and the merge (merge.mjs).  One JSON line per bench on stdout; progress,
# warnings and a summary on stderr; nothing is written to the source tree.
#
# Environment: top_srcdir, top_builddir (default .), NODE (default node),
# BENCH_LIB_CFLAGS (the flags libproto.a was compiled with, for a warning),
# BENCH_IR (the benches to count instructions for, each NAME or NAME:N with
# its own N; "none" skips callgrind),
# BENCH_IR_ITERS (N of the difference method, default 2000),
# BENCH_PEER_SCRIPT (default tests/interop/bench-codec.mjs),
# BENCH_NO_PIN (set: do not use taskset), BENCH_ARGS (extra bench options).

srcdir="${top_srcdir:-.}"
builddir="${top_builddir:-.}"
node="${NODE:-node}"
bench="$builddir/tests/bench/bench"
fixtures="$srcdir/tests/bench/codec-fixtures.jsonl"
peer_script="${BENCH_PEER_SCRIPT:-$srcdir/tests/interop/bench-codec.mjs}"
ir_default="codec_decode/ack codec_decode/fanout8"
ir_default="$ir_default codec_encode/ack codec_encode/small noise_frame/seal-1500"
# The prekey benches (perf.md P1-P3) take milliseconds per operation, tens
# of seconds under callgrind at N = 2000: a small N of their own (their
# operations are deterministic, so (Ir at 2N - Ir at N) / N is exact for
# key generation; the store's WAL checkpoints make its Ir vary a little).
ir_default="$ir_default prekey_gen_812:1 prekey_store_812:20"
ir_default="$ir_default prekey_upload_iq:20 prekey_connect_path:1"
ir_benches="${BENCH_IR:-$ir_default}"
ir_iters="${BENCH_IR_ITERS:-2000}"

say() {
	echo "bench: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The allocator conditions of whatsapp-rust's CI (perf.md 3.0).
. "$(dirname "$0")/bench-lib.sh"

bench_malloc_env

bench_pin
[ -n "$pin" ] ||
    say "not pinned to a CPU (no taskset, one CPU, or BENCH_NO_PIN)"

# Numbers from an unoptimised or instrumented library mean nothing: the
# last -O of the library's flags wins, as in the compiler.
opt=
for f in ${BENCH_LIB_CFLAGS:-}; do
	case "$f" in
	-O*)		opt="$f" ;;
	-fsanitize=*)	say "warning: libproto.a is built with $f;" \
			    "reconfigure without sanitizers to benchmark" ;;
	esac
done
case "$opt" in
-O0|-O1|-Og)	say "warning: libproto.a is built with $opt; the" \
		    "benches expect -O2 (configure CFLAGS='-g -O2')" ;;
esac

# 1. The C bench.
say "running the C bench${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bench" --fixtures "$fixtures" ${BENCH_ARGS:-} >"$tmp/c.jsonl"
then
	say "the C bench failed"
	exit 1
fi

# 2. Instructions per operation: callgrind collects inside the operation's
# function (bench_codec_decode_op, ...); (Ir at 2N - Ir at N) / N removes
# the setup, warm-up and allocation-counting operations, which are the same
# in both runs.
: >"$tmp/ir.txt"
if [ "$ir_benches" != none ] && command -v valgrind >/dev/null 2>&1; then
	say "counting instructions with callgrind ($ir_benches)"
	for spec in $ir_benches; do
		case "$spec" in
		*:*)	name=${spec%:*} iters=${spec##*:} ;;
		*)	name=$spec iters=$ir_iters ;;
		esac
		fn="bench_${name%%/*}_op"
		bench_ir "$name" "$iters" "$fn" 1 "" "$tmp" "$tmp/ir.txt" \
		    "$bench" --fixtures "$fixtures" || true
	done
elif [ "$ir_benches" != none ]; then
	say "valgrind not found: no instruction counts"
fi
# Add "ir" before the closing brace of the lines it was measured for.
awk 'NR == FNR { ir[$1] = $2; next }
    {
	name = $0
	sub(/^.*"name":"/, "", name)
	sub(/".*$/, "", name)
	if (name in ir)
		sub(/}$/, ",\"ir\":" ir[name] "}")
	print
    }' "$tmp/ir.txt" "$tmp/c.jsonl" >"$tmp/c-ir.jsonl"

# 3. The peers, under the same CPU pinning, then the merge.
if ! command -v "$node" >/dev/null 2>&1; then
	say "node not found: no peer comparison (lines without peer fields)"
	cat "$tmp/c-ir.jsonl"
	exit 0
fi
: >"$tmp/peers.jsonl"
if [ ! -d "$srcdir/tests/interop/node_modules" ]; then
	say "tests/interop/node_modules is missing (npm ci in tests/interop):" \
	    "no peer comparison"
elif [ ! -f "$peer_script" ]; then
	say "$peer_script not found: no peer comparison"
else
	say "running the peers ($peer_script${pin:+, $pin})"
	# shellcheck disable=SC2086
	if ! $pin "$node" "$peer_script" "$fixtures" >"$tmp/peers.jsonl"; then
		say "the peer bench failed: no peer comparison"
		: >"$tmp/peers.jsonl"
	fi
fi
"$node" "$srcdir/tests/bench/merge.mjs" "$tmp/c-ir.jsonl" "$tmp/peers.jsonl"
