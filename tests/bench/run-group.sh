#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-group.sh -- what `make bench-group` (and `make bench`)
# runs for the group benches of perf.md (S3 group_send_warm_{10,50,256},
# S5 skdm_send_256, R3 group_recv): tests/bench/bench-group pinned to CPU 1 with
# whatsapp-rust's CI allocator settings, callgrind instructions per
# operation (the difference method of run-dm.sh), and a summary against
# perf.md's anchors and targets on stderr.  One JSON line per bench on
# stdout.
#
# Environment: top_srcdir, top_builddir (default .), BENCH_IR ("none"
# skips callgrind; else NAME:N ...), BENCH_NO_PIN, BENCH_ARGS (extra
# bench-group options, e.g. --samples 5).

builddir="${top_builddir:-.}"
bench="$builddir/tests/bench/bench-group"
ir_benches="${BENCH_IR:-group_send_warm_10:100 group_send_warm_256:100 skdm_send_256:3 group_recv:100}"

say() {
	echo "bench-group: $*" >&2
}

if [ ! -x "$bench" ]; then
	say "$bench is not built (run 'make bench-group')"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-bench-group.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

bench_malloc_env

bench_pin

say "running bench-group${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bench" ${BENCH_ARGS:-} >"$tmp/c.jsonl"; then
	say "bench-group failed"
	exit 1
fi

# Instructions per operation, collected inside bench_group_send_warm_op or
# bench_skdm_send_256_op: (Ir at 2N - Ir at N) / 2N, since --iters N
# --samples 1 runs N counted and N timed operations after a fixed warm-up.
: >"$tmp/ir.txt"
if [ "$ir_benches" != none ] && command -v valgrind >/dev/null 2>&1; then
	say "counting instructions with callgrind ($ir_benches)"
	for spec in $ir_benches; do
		name=${spec%:*}
		iters=${spec##*:}
		case "$name" in
		group_send_warm_*)	fn=bench_group_send_warm_op ;;
		*)			fn=bench_${name}_op ;;
		esac
		bench_ir "$name" "$iters" "$fn" 2 "" "$tmp" "$tmp/ir.txt" \
		    "$bench" || true
	done
elif [ "$ir_benches" != none ]; then
	say "valgrind not found: no instruction counts"
fi

# Merge the Ir into the lines; the summary against perf.md 1.2 (B2, B3,
# B4) and the S3/S5 targets goes to stderr.
awk -v irf="$tmp/ir.txt" '
function num(l, k,    m) {
	if (match(l, "\"" k "\":[0-9.]+")) {
		m = substr(l, RSTART, RLENGTH)
		sub(/^[^:]*:/, "", m)
		return m + 0
	}
	return -1
}
function str(l, k,    m) {
	if (match(l, "\"" k "\":\"[^\"]*\"")) {
		m = substr(l, RSTART, RLENGTH)
		sub(/^[^:]*:"/, "", m)
		sub(/"$/, "", m)
		return m
	}
	return ""
}
function chk(what, v, ok,    tag) {
	if (ok == "")
		tag = "n/a "
	else if (ok)
		tag = "ok  "
	else
		tag = "MISS"
	summary = summary sprintf("%s %s: %s\n", tag, what, v)
}
BEGIN {
	while ((getline l < irf) > 0) {
		split(l, f, " ")
		ir[f[1]] = f[2]
	}
}
{
	name = str($0, "name")
	if (name in ir)
		sub(/}$/, ",\"ir\":" ir[name] "}")
	print
	a = num($0, "allocs")
	b = num($0, "bytes")
	t = num($0, "median_ns")
	i = (name in ir) ? ir[name] : ""
	if (name ~ /^group_send_warm_/) {
		warm[name] = a " allocations, " b " B"
		chk("S3 " name " <= 22 allocations, <= 3.58 KB (B2)", a \
		    " allocations, " b " B", (a <= 22 && b <= 3580))
		chk("S3 " name " <= 4 allocations, <= 1 KB (perf.md target)", \
		    a " allocations, " b " B", (a <= 4 && b <= 1024))
		chk("S3 " name " Ir <= 330 K (B4 334 K)", \
		    (i == "") ? "not measured" : i, \
		    (i == "") ? "" : (i <= 330000))
		chk("S3 " name " <= 20 us (median)", sprintf("%.1f us", \
		    t / 1000), (t <= 20000))
	} else if (name == "skdm_send_256") {
		chk("S5 skdm_send_256 < 6,816 allocations, < 675.1 KB (B3)", \
		    a " allocations, " b " B", a < 6816 && b < 675100)
		chk("S5 skdm_send_256 <= 600 allocations, <= 150 KB " \
		    "(perf.md target)", a " allocations, " b " B", \
		    (a <= 600 && b <= 150000))
		chk("S5 skdm_send_256 Ir <= 30 M", \
		    (i == "") ? "not measured" : i, \
		    (i == "") ? "" : (i <= 30000000))
		chk("S5 skdm_send_256 <= 1.5 ms (median)", sprintf("%.2f ms", \
		    t / 1e6), (t <= 1500000))
	} else if (name == "group_recv") {
		chk("R3 group_recv <= 4 allocations (perf.md target)", \
		    a " allocations, " b " B", (a <= 4))
		chk("R3 group_recv <= 50 us (median; perf.md target)", \
		    sprintf("%.1f us", t / 1000), (t <= 50000))
		chk("R3 group_recv Ir (perf.md: libsignal 1.66 M, with " \
		    "libsodium verify 636 K)", (i == "") ? "not measured" : i, "")
	}
}
END {
	flat = ""
	for (n in warm) {
		if (flat == "")
			flat = warm[n]
		else if (warm[n] != flat)
			flat = "differ"
	}
	if (flat != "")
		chk("S3 allocations and bytes flat across N (slope 0)", \
		    flat, (flat != "differ"))
	printf "\n%s", summary > "/dev/stderr"
}' "$tmp/c.jsonl"
