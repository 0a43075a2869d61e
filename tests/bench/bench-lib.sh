# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/bench-lib.sh -- what the bench scripts (run.sh, run-dm.sh,
# run-group.sh, run-history.sh, run-history-sync.sh,
# run-appstate-proto.sh) share: the allocator settings, pinning to a CPU
# and the callgrind instruction count per operation.  Sourced (POSIX sh);
# each script defines say() before it calls these.

# whatsapp-rust's CI allocator settings (perf.md 3.0): one arena, mmap and
# trim thresholds fixed, so that allocation counts and RSS do not depend on
# the machine's glibc tuning.
bench_malloc_env() {
	MALLOC_ARENA_MAX=1
	MALLOC_MMAP_THRESHOLD_=131072
	MALLOC_TRIM_THRESHOLD_=131072
	MALLOC_TOP_PAD_=131072
	export MALLOC_ARENA_MAX MALLOC_MMAP_THRESHOLD_ MALLOC_TRIM_THRESHOLD_ \
	    MALLOC_TOP_PAD_
}

# Sets pin to "taskset -c 1" when the machine has two CPUs or more, taskset
# is there and BENCH_NO_PIN is unset; else to "".
bench_pin() {
	# shellcheck disable=SC2034  # read by the caller
	pin=
	_ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
	if [ -z "${BENCH_NO_PIN:-}" ] && command -v taskset >/dev/null 2>&1 &&
	    [ "$_ncpu" -ge 2 ]; then
		pin="taskset -c 1"
	fi
}

# bench_ir NAME ITERS FN PER OK_RC TMP OUT BENCH [ARG...]
# Instructions per operation of the bench NAME by the difference method:
# BENCH ARG... --only NAME --iters N --samples 1 under callgrind, counting
# inside the function FN only, at N = ITERS and N = 2 * ITERS; the setup
# and warm-up are the same in both runs, so (Ir at 2N - Ir at N) / (PER *
# ITERS) is one operation's count, PER the operations a bench runs per
# iteration at --samples 1 (2 where it runs N counted and N timed ones).
# OK_RC: an exit status other than 0 that still counts (the bench's "bar
# missed", slowed by callgrind), or "". Appends "NAME COUNT" to OUT; TMP is
# a scratch folder.  Returns 1 (and says why) when callgrind fails.
bench_ir() {
	_name=$1 _iters=$2 _fn=$3 _per=$4 _okrc=$5 _tmp=$6 _out=$7
	shift 7
	_ir1=
	for _n in "$_iters" "$((_iters * 2))"; do
		valgrind --tool=callgrind --cache-sim=no \
		    --toggle-collect="$_fn" --callgrind-out-file="$_tmp/cg.out" \
		    "$@" --only "$_name" --iters "$_n" --samples 1 \
		    >/dev/null 2>"$_tmp/cg.err"
		_rc=$?
		if [ "$_rc" -ne 0 ] && [ "$_rc" != "$_okrc" ]; then
			say "callgrind failed on $_name:"
			cat "$_tmp/cg.err" >&2
			return 1
		fi
		_ir=$(awk '/^(summary|totals):/ { print $2; exit }' \
		    "$_tmp/cg.out")
		if [ -z "$_ir1" ]; then
			_ir1=$_ir
			continue
		fi
		awk -v a="$_ir1" -v b="$_ir" -v n="$_iters" -v p="$_per" \
		    -v k="$_name" \
		    'BEGIN { printf "%s %.0f\n", k, (b - a) / (p * n) }' \
		    >>"$_out"
	done
}
