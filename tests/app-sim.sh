#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The wachat command against wachat-sim, as a user runs it: a fresh data
# dir shows a QR (also written to --qr-file), the phone's scan links it,
# "connected" follows, SIGTERM stops it cleanly (exit 0) and leaves a 0700
# data dir of 0600 files; a second run logs in with no QR; a third, on a
# fresh data dir with --pair-phone (the number written as people do, with
# spaces, parentheses and a dash), links by a code the phone enters.
# Also the messages for a bad setting on the command line and in the
# file.  TAP.
# Every wait is bounded; wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001

# Keep wachat's defaults (settings file, log) inside the test's directory.
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"

# wachat_bg OUT [OPTION]...: run wachat against the sim; sets $wpid.
wachat_bg() {
	out=$1
	shift
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$tmp/data" \
	    "$@" >"$out" 2>"$out.err" &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

# term PID: SIGTERM, then wait up to 60 s (SIGKILL after that); sets
# $status.
term() {	# a clean stop gets 60 s, even on a loaded machine, then KILL
	kill -TERM "$1" 2>/dev/null
	wait_for not_running "$1"
	kill -KILL "$1" 2>/dev/null
	wait "$1"
	status=$?
	bg_pids=$(echo "$bg_pids" | sed "s/\\<$1\\>//")
}

# why_stop NAME: after a run that did not stop cleanly, its exit status,
# what it printed and the end of the log (which holds no message text).
why_stop() {
	echo "# exit status $status"
	diag "$tmp/$1"
	diag "$tmp/$1.err"
	echo "# the log's last 40 lines:"
	tail -n 40 "$HOME/.local/state/wachat/wachat.log" 2>/dev/null |
	    sed 's/^/# /'
}

need curl stat find
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1

# --- run 1: link by QR
wachat_bg "$tmp/w1" --qr-file "$tmp/qr"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
qr=$(cat "$tmp/qr" 2>/dev/null)
check "a fresh data dir shows a QR, also written to --qr-file" \
    wait_for grep -q -F "scan this QR code with your phone within 60 s: $qr" "$tmp/w1"
[ $? -eq 0 ] || { diag "$tmp/w1"; diag "$tmp/w1.err"; }
ctl scan-qr "$qr" >"$tmp/scan" 2>&1
check "the phone's scan of the QR from the file is accepted" \
    grep -q '"paired":true' "$tmp/scan"
check "wachat reports the link" wait_grep "$tmp/w1" "^linked as \\+$PN\$"
check "wachat logs in and says it is connected" \
    wait_grep "$tmp/w1" "^connected as \\+$PN\$"
term "$wpid"
check "SIGTERM stops it cleanly: exit 0" [ "$status" -eq 0 ]
[ "$status" -eq 0 ] || why_stop w1
check "the data dir is 0700" [ "$(stat -c %a "$tmp/data")" = 700 ]
check "the data dir holds the database" [ -f "$tmp/data/wachat.db" ]
wide=$(find "$tmp/data" -type f ! -perm 600)
check "every file in the data dir is 0600" \
    sh -c "[ -d '$tmp/data' ] && [ -z '$wide' ]"
[ -z "$wide" ] || ls -l "$tmp/data" | sed 's/^/# /'
log="$HOME/.local/state/wachat/wachat.log"
check "the log goes to \$XDG_STATE_HOME's default, 0600" \
    [ "$(stat -c %a "$log" 2>/dev/null)" = 600 ]

# --- run 2: the same data dir logs in with no QR
wachat_bg "$tmp/w2"
check "a second run logs in again" \
    wait_grep "$tmp/w2" "^connected as \\+$PN\$"
term "$wpid"
check "... with no QR" no_line "$tmp/w2" 'QR'
check "... and stops cleanly on SIGTERM: exit 0" [ "$status" -eq 0 ]
[ "$status" -eq 0 ] || why_stop w2

# --- run 3: link a fresh data dir by a code typed on the phone
wachat_bg "$tmp/w3" --data-dir "$tmp/data3" --pair-phone "+1 (555) 000-0001"
codere='[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}'
wait_grep "$tmp/w3" "^enter this code on your phone: $codere\$"
code=$(sed -n 's/^enter this code on your phone: //p' "$tmp/w3" | head -1)
check "--pair-phone '+1 (555) 000-0001' shows a code to type on the phone (${code:-none})" \
    [ -n "$code" ]
[ -n "$code" ] || { diag "$tmp/w3"; diag "$tmp/w3.err"; }
curl -s -m 60 -X POST -H 'Content-Type: application/json' \
    -d "{\"code\":\"$code\",\"pn\":\"$PN\"}" \
    "$ADMIN/admin/mock-phone/enter-code" >"$tmp/enter" 2>&1
check "the phone's entry of the code links it and wachat connects" \
    wait_grep "$tmp/w3" "^connected as \\+$PN\$"
[ $? -eq 0 ] || { diag "$tmp/w3"; diag "$tmp/enter"; }
term "$wpid"
check "... with no QR, and stops cleanly on SIGTERM: exit 0" \
    sh -c "[ '$status' -eq 0 ] && ! grep -q QR '$tmp/w3'"
[ "$status" -eq 0 ] && ! grep -q QR "$tmp/w3" || why_stop w3

# --- a data dir open to other users is refused, and the screen says why
mkdir -m 750 "$tmp/open"
"$W" --data-dir "$tmp/open" --url "$URL" --root-key "$ROOT_PUB" \
    >"$tmp/open.out" 2>&1
status=$?
refused() {
	[ "$status" -eq 3 ] &&
	    grep -q 'is open to other users.*chmod 700' "$tmp/open.out"
}
check "a data dir open to other users: exit 3 (the database), saying why and what to do" \
    refused
[ "$status" -eq 3 ] || diag "$tmp/open.out"

# --- bad settings: named, with the file and line
"$W" --log-level loud >"$tmp/bad1" 2>&1
status=$?
check "a bad option value exits 1" [ "$status" -eq 1 ]
check "... naming the option and the problem" grep -q -x \
    "wachat: --log-level: not one of error, warn, info, debug" "$tmp/bad1"
mkdir -p "$HOME/.config/wachat"
printf '# settings\nurl = http://example.invalid/\n' \
    >"$HOME/.config/wachat/wachat.conf"
"$W" >"$tmp/bad2" 2>&1
status=$?
check "a bad value in the settings file exits 1, naming file, line and setting" \
    [ "$status" -eq 1 -a "$(cat "$tmp/bad2")" = \
    "wachat: $HOME/.config/wachat/wachat.conf:2: url: not a ws:// or wss:// URL" ]
[ "$status" -eq 1 ] || diag "$tmp/bad2"

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
reports=$(grep -l -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null)
if [ -z "$reports" ]; then
	ok "no sanitizer report from wachat-sim or wachat"
else
	not_ok "no sanitizer report from wachat-sim or wachat"
	for f in $reports; do
		diag "$f"
	done
fi
finish_tap
