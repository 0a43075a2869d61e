#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-appstate-proto.sh -- what `make bench-appstate-proto`
# (and `make bench`) runs for the protocol layer's app-state benches
# (appstate_snapshot_10k_decode, appstate_patch_1_decode) and the whole
# path through the store (appstate_snapshot_10k, appstate_patch_1):
# tests/bench/bench-appstate-proto pinned to CPU 1,
# callgrind instructions per operation by run-group.sh's difference
# method ((Ir at 2N - Ir at N) / N, bench_appstate_*_op toggled), one
# JSON line per bench on stdout with "ir" merged in.
#
# Environment: top_srcdir, top_builddir (default .), BENCH_IR ("none"
# skips callgrind), BENCH_NO_PIN, BENCH_ARGS (extra options of
# bench-appstate-proto).

builddir="${top_builddir:-.}"
bench="$builddir/tests/bench/bench-appstate-proto"
ir_benches="${BENCH_IR:-appstate_snapshot_10k_decode:2 appstate_patch_1_decode:200 appstate_snapshot_10k:2 appstate_patch_1:200}"

say() {
	echo "bench-appstate-proto: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench-appstate-proto')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench-asproto.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

bench_pin

say "running bench-appstate-proto${pin:+ ($pin)}"
# shellcheck disable=SC2086
$pin "$bench" ${BENCH_ARGS:-} >"$tmp/c.jsonl"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
	say "bench-appstate-proto failed"
	exit 1
fi

: >"$tmp/ir.txt"
if [ "$ir_benches" != none ] && command -v valgrind >/dev/null 2>&1; then
	for spec in $ir_benches; do
		name=${spec%:*}
		iters=${spec##*:}
		# exit 2: the bar missed, slowed down by callgrind
		bench_ir "$name" "$iters" "bench_${name}_op" 1 2 "$tmp" \
		    "$tmp/ir.txt" "$bench" || true
	done
elif [ "$ir_benches" != none ]; then
	say "valgrind not found: no instruction counts"
fi

awk -v irf="$tmp/ir.txt" '
BEGIN {
	while ((getline l < irf) > 0) {
		split(l, f, " ")
		ir[f[1]] = f[2]
	}
}
{
	if (match($0, "\"name\":\"[^\"]*\"")) {
		name = substr($0, RSTART + 8, RLENGTH - 9)
		if (name in ir)
			sub(/}$/, ",\"ir\":" ir[name] "}")
	}
	print
}' "$tmp/c.jsonl"
exit "$rc"
