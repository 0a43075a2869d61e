#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A connection cut in the middle of a frame, 20 times at random offsets
# (issue 6): wachat-sim sends bob's engine only the first N bytes of the
# frame carrying alice's message, then closes.  bob's engine must not
# crash, must reconnect, and must get every message exactly once (the sim
# keeps an unacked message queued for the next login).  The offsets come
# from a seed printed below (WACHAT_CUT_SEED repeats a run).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
DRV="$b/tests/wa-eng-driver"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net
ROUNDS=20
need od awk mkfifo
SEED=${WACHAT_CUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $SEED"

# start NAME FD: the engine of NAME reading commands from a FIFO held on
# fd FD (3 or 4), reconnecting within 300 ms.
start() {
	mkfifo "$tmp/$1.in"
	"$DRV" --url "$URL" --root "$ROOT_PUB" --store "$tmp/$1.d" \
	    --qr-file "$tmp/$1.qr" --messaging --commands --retry-cap-ms 300 \
	    --deadline-ms 300000 <"$tmp/$1.in" >"$tmp/$1.out" \
	    2>"$tmp/$1.err" &
	eval "${1}_pid=\$!"
	bg_pids="$bg_pids $!"
	eval "exec $2>\"\$tmp/\$1.in\""
}

link() {
	wait_grep "$tmp/$1.qr" 'https://' &&
	    ctl scan-qr "$(cat "$tmp/$1.qr")" "$2" >/dev/null 2>&1
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
start alice 3
start bob 4
link alice $A
link bob $B
wait_grep "$tmp/alice.out" '^prekeys-uploaded '
check "both engines link and log in" \
    wait_grep "$tmp/bob.out" '^prekeys-uploaded '

# cut_at OFFSET: the sim arms the cut of bob's next frame at OFFSET.
cut_at() {
	ctl cut "$B:1@s.whatsapp.net" "$1" >/dev/null 2>&1
}

awk -v seed="$SEED" -v n=$ROUNDS 'BEGIN { srand(seed)
	for (i = 1; i <= n; i++) print int(rand() * 250) + 1 }' >"$tmp/offsets"
i=0
cut_ok=0
got=0
while read -r off; do
	i=$((i + 1))
	# bob must be logged in (round i: his i-th login) for the cut to be
	# armed: a cut armed before the <success> of a new connection would
	# end that one before any login, and the logins would not count the
	# cuts
	wait_count "$tmp/bob.out" '^connected ' "$i"
	wait_for cut_at "$off" && cut_ok=$((cut_ok + 1))
	echo "send $BJ cut $i at $off" >&3
	if wait_grep "$tmp/bob.out" "^dm-message $AJ .*: cut $i at $off\$"; then
		got=$((got + 1))
	else
		echo "# round $i (offset $off): the message did not arrive"
	fi
done <"$tmp/offsets"
check "the sim cut $cut_ok of $ROUNDS frames in the middle" [ "$cut_ok" -eq $ROUNDS ]
cuts=$(grep -c 'cut: [0-9]* of [0-9]* bytes' "$tmp/sim.log")
check "... the log shows $cuts cuts" [ "$cuts" -ge $ROUNDS ] || diag "$tmp/sim.log"
check "bob's engine is still running" running "$bob_pid"
check "every message arrived ($got of $ROUNDS)" [ "$got" -eq $ROUNDS ] ||
    { diag "$tmp/bob.out"; tail -n 40 "$tmp/sim.log" | sed 's/^/# /'; }
dups=$(sed -n "s/^dm-message $AJ \\([^ ]*\\) .*: cut .*/\\1/p" "$tmp/bob.out" |
    sort | uniq -d | wc -l)
check "... each exactly once" [ "$dups" -eq 0 ]
# The last cut may land on a frame after the message (a receipt, a
# notification): wait for the login that follows it.
wait_count "$tmp/bob.out" '^connected ' $((ROUNDS + 1))
recon=$(grep -c '^connected ' "$tmp/bob.out")
check "bob reconnected after each cut ($recon logins)" [ "$recon" -gt $ROUNDS ]

echo quit >&3
echo quit >&4
wait_pid "$alice_pid"
wait_pid "$bob_pid"
check "bob's engine stops cleanly at the end (status $status)" [ "$status" -eq 0 ]
sim_stop
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null; then
	not_ok "no sanitizer report"
	for f in "$tmp"/*.err; do diag "$f"; done
else
	ok "no sanitizer report"
fi
finish_tap
