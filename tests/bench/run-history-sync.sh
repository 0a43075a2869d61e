#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-history-sync.sh -- what `make bench-history-sync` (and
# `make bench`) runs for perf.md H1 history_sync_ingest:
# tests/bench/bench-history-sync pinned to CPU 1 with whatsapp-rust's CI
# allocator settings, one JSON line on stdout, and the line checked
# against perf.md's targets on stderr (<= 7 ms per chunk, 0 allocations
# per message, >= 400 MB/s decompressed; the time targets assume
# libdeflate: the line's "inflater" says which one this build uses).
#
# Environment: top_builddir (default .), BENCH_NO_PIN (set: no taskset),
# BENCH_ARGS (extra bench-history-sync options, e.g. --samples 5).
builddir="${top_builddir:-.}"
bench="$builddir/tests/bench/bench-history-sync"

say() {
	echo "bench-history-sync: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench-history-sync')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench-hs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

bench_malloc_env

bench_pin

say "running${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bench" ${BENCH_ARGS:-} >"$tmp/h.jsonl"; then
	say "bench-history-sync failed"
	exit 1
fi
cat "$tmp/h.jsonl"

awk '
function num(k,    r) {
	if (match($0, "\"" k "\":[-0-9.e]+")) {
		r = substr($0, RSTART, RLENGTH)
		sub(/^[^:]*:/, "", r)
		return r + 0
	}
	return ""
}
function check(what, value, ok) {
	printf "%s %s: %s\n", ok ? "ok  " : "MISS", what, value > "/dev/stderr"
}
{
	med = num("median_ns")
	inf = "zlib"
	if (match($0, /"inflater":"[a-z]*"/))
		inf = substr($0, RSTART + 12, RLENGTH - 13)
	check("H1 history_sync_ingest <= 7 ms per chunk (median; " inf ")",
	    sprintf("%.3f ms (inflate %.3f, parse %.3f)", med / 1e6,
	    num("inflate_median_ns") / 1e6, num("parse_median_ns") / 1e6),
	    med <= 7e6)
	check("H1 0 allocations per message (warm)",
	    sprintf("%s per chunk, %.4f per message", num("allocs"),
	    num("allocs_per_msg")), num("allocs") < num("messages") / 1000)
	check("H1 >= 400 MB/s decompressed", sprintf("%.0f MB/s",
	    num("mb_s")), num("mb_s") >= 400)
}' "$tmp/h.jsonl"
