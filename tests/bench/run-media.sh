#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-media.sh -- what `make bench-media` (and `make bench`)
# runs for issue 19's media_encrypt_100M and media_decrypt_100M:
# tests/bench/bench-media pinned to CPUs 0 and 1, its JSON lines on
# stdout, and each checked on stderr against the bars (throughput >= 0.8
# of the same run's floor, peak RSS growth <= 8 MB).  Two CPUs, not one
# as the other benches: the path hashes fileSha256 and fileEncSha256 on a
# second thread (proto/media-pipe.h), the floor is one pass on one core;
# the report says so.
#
# Environment: top_builddir (default .), BENCH_NO_PIN (set: no taskset),
# BENCH_ARGS (extra bench-media options: -m MB, -s SAMPLES, -d DIR).
builddir="${top_builddir:-.}"
bench="$builddir/tests/bench/bench-media"

say() {
	echo "bench-media: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench-media')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench-m.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

pin=
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ -z "${BENCH_NO_PIN:-}" ] && command -v taskset >/dev/null 2>&1 &&
    [ "$ncpu" -ge 2 ]; then
	pin="taskset -c 0,1"
fi

say "running${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bench" ${BENCH_ARGS:-} >"$tmp/m.jsonl"; then
	say "bench-media failed"
	exit 1
fi
cat "$tmp/m.jsonl"

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
	name = $0
	sub(/^.*"name":"/, "", name)
	sub(/".*$/, "", name)
	check(name " >= 0.8 of the floor (AES-256-CBC + HMAC + SHA-256 on " \
	    "one core; the path on " num("path_threads") " threads)",
	    sprintf("%.3f (%.0f MB/s, floor %.0f MB/s; %.3f against a floor " \
	    "with both SHA-256s)", num("ratio"), num("mb_s"),
	    num("floor_mb_s"), num("floor2_ratio")), num("ratio") >= 0.8)
	check(name " peak RSS growth <= 8 MB", sprintf("%d kB",
	    num("rss_growth_kb")), num("rss_growth_kb") <= 8192)
}' "$tmp/m.jsonl"
