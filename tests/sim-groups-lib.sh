# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by tests/sim-group-session.sh, sim-group-reinstall.sh and
# sim-group-lidpn.sh (sourced after tests/sim-lib.sh): alice's wachat
# engine (tests/wa-eng-driver --messaging, real store in $tmp/alice.d) as
# a companion of account $A, started, stopped and started again on the
# same store; and polling the sim's admin answers with a deadline.
DRV="$b/tests/wa-eng-driver"

# alice_start: start alice's engine (linking it on its first start);
# returns 1 when it did not log in within 60 s.
alice_start() {
	rm -f "$tmp/alice.in"
	mkfifo "$tmp/alice.in"
	"$DRV" --url "$URL" --root "$ROOT_PUB" --store "$tmp/alice.d" \
	    --qr-file "$tmp/alice.qr" --messaging --commands \
	    --deadline-ms 120000 <"$tmp/alice.in" >>"$tmp/alice.out" \
	    2>>"$tmp/alice.err" &
	alice_pid=$!
	bg_pids="$bg_pids $alice_pid"
	exec 3>"$tmp/alice.in"
	nc=$(grep -c '^connected ' "$tmp/alice.out" 2>/dev/null)
	first=0
	if [ "${alice_linked:-0}" -eq 0 ]; then
		wait_grep "$tmp/alice.qr" 'https://' 600 &&
		    ctl scan-qr "$(cat "$tmp/alice.qr")" $A >/dev/null 2>&1
		alice_linked=1
		first=1
	fi
	i=0
	while [ "$(grep -c '^connected ' "$tmp/alice.out")" -le "$nc" ]; do
		i=$((i + 1))
		[ "$i" -gt 600 ] && return 1
		sleep 0.1
	done
	# Just linked: until the server holds her prekeys, a phone sending
	# to the group finds no keys for her device and sends her no SKDM.
	# (Logging in again uploads none: the server has them.)
	[ "$first" -eq 0 ] || wait_grep "$tmp/alice.out" '^prekeys-uploaded ' 600
}

# alice_stop: quit alice's engine and wait for it (30 s).
alice_stop() {
	echo quit >&3
	wait_pid "$alice_pid" 600
	exec 3>&-
}

# alice_send CHAT TEXT: queue TEXT; prints its id (30 s).
alice_send() {
	as_nq=$(grep -c '^queued ' "$tmp/alice.out")
	echo "send $1 $2" >&3
	queued_after "$tmp/alice.out" "$as_nq" 600
}

# wait_ctl REGEX CTL-ARG...: poll the ctl command until its output
# matches REGEX (60 s); the last output is in $tmp/wc.
wait_ctl() {
	wc_re=$1
	shift
	wc_i=0
	while [ "$wc_i" -lt 600 ]; do
		ctl "$@" >"$tmp/wc" 2>&1
		grep -Eq -- "$wc_re" "$tmp/wc" && return 0
		sleep 0.1
		wc_i=$((wc_i + 1))
	done
	return 1
}

# json_str KEY FILE: the first string value of KEY in FILE.
json_str() {
	sed -n "s/^[^{]*{\"$1\":\"\([^\"]*\)\".*/\1/p; t; s/.*,\"$1\":\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1
}

# retries ID FROM: how many retry receipts for message ID the sim routed
# from FROM (a JID, or an ERE of JIDs).
retries() {
	ctl messages | grep -Eo "\"kind\":\"receipt\",\"id\":\"$1\",\"type\":\"retry\",\"from\":\"($2)\"" | wc -l
}

# no_sanitizer: the last check, over every *.err.
no_sanitizer() {
	if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null; then
		not_ok "no sanitizer report"
		for f in "$tmp"/*.err; do diag "$f"; done
	else
		ok "no sanitizer report"
	fi
}
