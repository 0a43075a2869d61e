#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16, points 5 and 7: the version look-up and the QR codes running
# out, with wachat in line mode (no terminal) against wachat-sim.
#  1. The compiled-in version is stale (the sim answers failure 405 below
#     a newer one, its version page carries that one and answers a bot
#     check to a request without a browser's Sec-Fetch-* headers):
#     wachat takes one 405, looks the version up once with a browser's
#     navigation headers (the sim keeps them: checked one by one), logs
#     in again with it and gets its QR code; the version is kept in the
#     database (counter 'wa_version').  Started again it announces that
#     version at once: no second 405, no second look-up.
#  2. Nobody scans: when the QR codes run out (qr-times 1,1 and 2 refs)
#     wachat says so and exits with status 1, having registered once.
# TAP.  Every wait is bounded; wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
need curl sqlite3 python3

HOME="$tmp/home"
export HOME LC_ALL=C.UTF-8
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"

# attempts KEY: the sim's count KEY in /admin/status's "attempts" block.
attempts() {
	curl -s -m 30 "$ADMIN/admin/status" | python3 -c '
import json, sys
print(json.load(sys.stdin)["attempts"][sys.argv[1]])' "$1" 2>/dev/null
}

# count_is KEY N: that count is N now.
count_is() {
	[ "$(attempts "$1")" = "$2" ]
}

# wachat_bg OUT [OPTION]...: wachat in line mode against the sim, in the
# background; sets $wpid.
wachat_bg() {
	out=$1
	shift
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$tmp/data" \
	    --log-file "$tmp/wachat.log" --qr-file "$tmp/qr" "$@" \
	    >"$out" 2>"$out.err" </dev/null &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

rev=$((1045649367 + 5000))
if ! sim_start --min-version "$rev"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi

# --- 1. a stale compiled-in version
wachat_bg "$tmp/w1" --version-url "$ADMIN/"
check "after one 405 and the look-up wachat registers and shows a QR code" \
    wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
[ $? -eq 0 ] || { diag "$tmp/w1"; diag "$tmp/w1.err"; tail -n 20 "$tmp/wachat.log" | sed 's/^/# /'; }
check "... the sim sent failure 405 once" count_is failures_405 1
check "... the version page was asked once, and answered with the version (no bot check)" \
    sh -c "[ \"\$(curl -s -m 30 '$ADMIN/admin/version-lookups' | python3 -c '
import json, sys
r = json.load(sys.stdin)[\"requests\"]
print(len(r), r[-1][\"bot_check\"] if r else None)')\" = '1 False' ]"
curl -s -m 30 "$ADMIN/admin/version-lookups" >"$tmp/lookups"
hdr() {	# hdr FIELD VALUE: the look-up's header FIELD was VALUE
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["requests"][-1]
sys.exit(0 if r[sys.argv[2]] == sys.argv[3] else 1)' "$tmp/lookups" "$1" "$2"
}
check "... with Sec-Fetch-Dest: document" hdr sec_fetch_dest document
check "... Sec-Fetch-Mode: navigate" hdr sec_fetch_mode navigate
check "... Sec-Fetch-Site: none" hdr sec_fetch_site none
check "... Sec-Fetch-User: ?1" hdr sec_fetch_user '?1'
check "... Accept-Language: en-US,en;q=0.9" hdr accept_language 'en-US,en;q=0.9'
check "... a browser's Accept and User-Agent" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["requests"][-1]
sys.exit(0 if r["accept"].startswith("text/html,") and
    r["user_agent"].startswith("Mozilla/5.0 (X11; Linux x86_64)") else 1)' \
    "$tmp/lookups"
[ $? -eq 0 ] || diag "$tmp/lookups"
kill "$wpid" 2>/dev/null
wait_pid "$wpid"
check "the version found is kept in the database (counter wa_version = $rev)" \
    [ "$(sqlite3 "$tmp/data/wachat.db" \
    "SELECT value FROM counter WHERE name = 'wa_version'" 2>&1)" = "$rev" ]

rm -f "$tmp/qr"
wachat_bg "$tmp/w2" --version-url "$ADMIN/"
check "started again, wachat registers and shows a QR code" \
    wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
check "... with the version kept: no second 405" count_is failures_405 1
check "... and no second look-up" \
    sh -c "[ \"\$(curl -s -m 30 '$ADMIN/admin/version-lookups' | python3 -c '
import json, sys; print(len(json.load(sys.stdin)[\"requests\"]))')\" = 1 ]"
check "... the log says which version it used, no secret in it" \
    grep -q "the version looked up before: 2.3000.$rev" "$tmp/wachat.log"
kill "$wpid" 2>/dev/null
wait_pid "$wpid"

# --- 2. nobody scans, in line mode
sim_stop
if ! sim_start --refs 2; then
	echo "Bail out! wachat-sim did not start again"
	exit 1
fi
rm -rf "$tmp/data" "$tmp/qr"
wachat_bg "$tmp/w3" --qr-times 1,1
wait_pid "$wpid"
check "nobody scans: wachat ends with exit status 1 ($status)" [ "$status" -eq 1 ]
check "... saying why" \
    grep -q '^stopped: the QR code expired: nobody scanned it$' "$tmp/w3"
[ $? -eq 0 ] || { diag "$tmp/w3"; diag "$tmp/w3.err"; }
check "... having registered once" count_is registrations 1

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
finish_tap
