#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench/run-history.sh -- what `make bench-history` (and `make bench`)
# runs for issue 7 (perf.md U1 history_open_1M, U2 scroll_1M,
# rss_connected):
#
# 1. tests/bench/bench-history gen: the 1,000,000-message database (plus
#    999 chats of 100) and nchat's table of the same rows, cached in
#    $top_builddir/tests/bench/history-1M (made again only when missing or
#    when the schema version or the generator changed); the same for a
#    1,000-message chat in history-1k.
# 2. bench-history run: U1 and U2 with nchat's query pattern as the peer,
#    pinned to CPU 1 with whatsapp-rust's CI allocator settings.
# 3. rss_connected: for each database, the real wachat (line mode) pairs a
#    fresh data dir with wachat-sim (an account, its QR from --qr-file
#    scanned by `ctl scan-qr`) and stops; the generated chats are put into
#    that same database (bench-history graft); wachat starts again on it,
#    logs in, and 3 s after "connected as" VmRSS, RssAnon and VmHWM are
#    read from /proc/PID/status.
#
# One JSON line per bench on stdout; progress, a table and the targets on
# stderr.  Environment: top_srcdir, top_builddir (default .), BENCH_NO_PIN
# (set: no taskset), BENCH_HISTORY_ARGS (extra `run` options, e.g.
# "--samples 5 --peer-samples 1"), BENCH_HISTORY_RSS=no (skip step 3),
# BENCH_HISTORY_SETTLE (seconds after "connected as", default 3).
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/sim-lib.sh"
bh="$b/tests/bench/bench-history"
W="$b/wachat"
settle=${BENCH_HISTORY_SETTLE:-3}

say() {
	echo "bench-history: $*" >&2
}

for f in "$bh" "$W" "$SIM"; do
	if [ ! -x "$f" ]; then
		say "$f is not built (run 'make bench-history')"
		exit 1
	fi
done

. "$(dirname "$0")/bench-lib.sh"

bench_malloc_env

bench_pin

big="$b/tests/bench/history-1M"
small="$b/tests/bench/history-1k"
"$bh" gen "$big" || exit 1
"$bh" gen "$small" --messages 1000 --chats 0 || exit 1

say "running U1/U2${pin:+ ($pin)}"
# shellcheck disable=SC2086
if ! $pin "$bh" run "$big" ${BENCH_HISTORY_ARGS:-} >"$tmp/h.jsonl"; then
	say "bench-history run failed"
	exit 1
fi

# Keep wachat's settings and log inside the temporary directory.
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"

# term PID: SIGTERM, up to 30 s, then SIGKILL.
term() {
	kill -TERM "$1" 2>/dev/null
	i=0
	while kill -0 "$1" 2>/dev/null && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$1\\>//")
}

# rss NAME SRC PN LID: pair a fresh data dir, graft SRC's chats into its
# database, log in again and print one rss_connected line.
rss() {
	name=$1 src=$2 pn=$3 lid=$4
	data="$tmp/data-$pn"
	ctl account "$pn" "$lid" bench >/dev/null 2>&1
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$data" \
	    --qr-file "$tmp/qr-$pn" >"$tmp/w1-$pn" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
	if ! wait_grep "$tmp/qr-$pn" 'https://wa\.me/' 150; then
		say "$name: no QR from wachat"
		sed 's/^/# /' "$tmp/w1-$pn" >&2
		term "$wpid"
		return 1
	fi
	ctl scan-qr "$(cat "$tmp/qr-$pn")" "$pn" >"$tmp/scan-$pn" 2>&1
	if ! wait_grep "$tmp/w1-$pn" "^connected as \\+$pn\$" 150; then
		say "$name: pairing failed"
		sed 's/^/# /' "$tmp/scan-$pn" "$tmp/w1-$pn" >&2
		term "$wpid"
		return 1
	fi
	term "$wpid"
	"$bh" graft "$src" "$data" || return 1
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$data" \
	    >"$tmp/w2-$pn" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
	if ! wait_grep "$tmp/w2-$pn" "^connected as \\+$pn\$" 300; then
		say "$name: no login with the grafted database"
		sed 's/^/# /' "$tmp/w2-$pn" >&2
		term "$wpid"
		return 1
	fi
	sleep "$settle"
	if ! kill -0 "$wpid" 2>/dev/null; then
		say "$name: wachat exited"
		return 1
	fi
	status="/proc/$wpid/status"
	rss_kb=$(awk '/^VmRSS:/ { print $2 }' "$status")
	anon_kb=$(awk '/^RssAnon:/ { print $2 }' "$status")
	file_kb=$(awk '/^RssFile:/ { print $2 }' "$status")
	hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "$status")
	msgs=$(sqlite3 "$data/wachat.db" 'SELECT count(*) FROM message' \
	    2>/dev/null || echo null)
	db_kb=$(du -k "$data/wachat.db" | cut -f1)
	term "$wpid"
	printf '{"name":"%s","rss_kb":%s,"rss_anon_kb":%s,"rss_file_kb":%s,' \
	    "$name" "$rss_kb" "$anon_kb" "$file_kb"
	printf '"hwm_kb":%s,"messages":%s,"db_kb":%s,"settle_s":%s}\n' \
	    "$hwm_kb" "$msgs" "$db_kb" "$settle"
}

if [ "${BENCH_HISTORY_RSS:-yes}" != no ]; then
	say "rss_connected: wachat against wachat-sim"
	if sim_start; then
		rss rss_connected/1M "$big" 15550000001 100000000000101 >>"$tmp/h.jsonl"
		rss rss_connected/1k "$small" 15550000002 100000000000102 >>"$tmp/h.jsonl"
		sim_stop
	else
		say "wachat-sim did not start: no rss_connected"
	fi
fi

cat "$tmp/h.jsonl"

# The table and perf.md's targets (U1, U2, issue 7's rss bar).
awk '
function num(k,    r) {
	if (match($0, "\"" k "\":[-0-9.e]+")) {
		r = substr($0, RSTART, RLENGTH)
		sub(/^[^:]*:/, "", r)
		return r + 0
	}
	return ""
}
function str(k,    r) {
	if (match($0, "\"" k "\":\"[^\"]*\"")) {
		r = substr($0, RSTART, RLENGTH)
		sub(/^[^:]*:"/, "", r)
		sub(/"$/, "", r)
		return r
	}
	return ""
}
function check(what, value, ok) {
	checks[++nc] = sprintf("%s %s: %s", ok ? "ok  " : "MISS", what, value)
}
{
	n = str("name")
	if (n ~ /^rss_connected/) {
		rss[n] = num("rss_kb"); anon[n] = num("rss_anon_kb")
		printf "%-22s %8s KB RSS %8s KB anon %8s KB HWM (%s messages)\n",
		    n, rss[n], anon[n], num("hwm_kb"), num("messages") > "/dev/stderr"
		next
	}
	med = num("median_ns"); peer = num("peer_median_ns")
	printf "%-22s %10.3f ms (min %.3f, p95 %.3f) %6d allocs" \
	    "  nchat %10.1f ms  x%.0f\n", n, med / 1e6,
	    num("min_ns") / 1e6, num("p95_ns") / 1e6, num("allocs"),
	    peer / 1e6, num("ratio") > "/dev/stderr"
	if (n == "history_open_1M") {
		check("U1 history_open_1M <= 15 ms warm (median)",
		    sprintf("%.3f ms", med / 1e6), med <= 15e6)
		check("U1 >= 100x nchat pattern",
		    sprintf("x%.0f", num("ratio")), num("ratio") >= 100)
	}
	if (n ~ /^scroll_1M\//)
		check("U2 " n " <= 1 ms (median; p95 " \
		    sprintf("%.3f ms", num("p95_ns") / 1e6) ")",
		    sprintf("%.3f ms, nchat x%.0f", med / 1e6, num("ratio")),
		    med <= 1e6)
}
END {
	b = "rss_connected/1M"; s = "rss_connected/1k"
	if (rss_wanted && !((b in rss) && (s in rss)))
		check("rss_connected measured for both databases", "missing", 0)
	if ((b in rss) && (s in rss)) {
		check("rss_connected does not grow with the chat:" \
		    " 1M - 1k VmRSS <= 1024 KB",
		    sprintf("%+d KB RSS, %+d KB anon", rss[b] - rss[s], anon[b] - anon[s]),
		    rss[b] - rss[s] <= 1024)
		check("perf.md M1 bar (1 chat open, idle 60 s; here" \
		    " line mode, 3 s): <= 12 MB RSS, <= 6 MB anon",
		    sprintf("%d KB, %d KB", rss[b], anon[b]),
		    rss[b] <= 12288 && anon[b] <= 6144)
	}
	print "" > "/dev/stderr"
	for (i = 1; i <= nc; i++)
		print checks[i] > "/dev/stderr"
}' rss_wanted="$([ "${BENCH_HISTORY_RSS:-yes}" != no ] && echo 1)" \
    "$tmp/h.jsonl"
