#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The outbox and the receive transaction survive kill -9 (issue 6,
# reliability.md): two wachat engines (tests/wa-eng-driver --messaging,
# real stores) on two accounts of wachat-sim.
#  - alice's engine is killed with SIGKILL right after a send is queued;
#    started again, it sends it: bob stores it exactly once, with the id
#    it was queued with.
#  - bob's engine dies right after the transaction storing an incoming
#    message commits, before its receipt and ack leave; the sim delivers
#    it again at bob's next login: it is stored exactly once (the
#    redelivered copy is a Signal duplicate, acked and ignored), and the
#    next message decrypts.
# TAP.  Every wait is bounded; everything is killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
DRV="$b/tests/wa-eng-driver"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
BJ=$B@s.whatsapp.net

# start NAME [OPTION]...: the engine of NAME (store $tmp/NAME.d), reading
# commands from the FIFO $tmp/NAME.in, output appended to $tmp/NAME.out.
start() {
	name=$1
	shift
	rm -f "$tmp/$name.in"
	mkfifo "$tmp/$name.in"
	"$DRV" --url "$URL" --root "$ROOT_PUB" --store "$tmp/$name.d" \
	    --qr-file "$tmp/$name.qr" --messaging --commands \
	    --deadline-ms 120000 "$@" <"$tmp/$name.in" \
	    >>"$tmp/$name.out" 2>>"$tmp/$name.err" &
	eval "${name}_pid=\$!"
	bg_pids="$bg_pids $!"
	# hold the FIFO open for writing on fd 3 (alice) or 4 (bob)
	if [ "$name" = alice ]; then exec 3>"$tmp/$name.in"; else exec 4>"$tmp/$name.in"; fi
}

# link NAME PN: wait for NAME's QR and let PN's phone scan it.
link() {
	wait_grep "$tmp/$1.qr" 'https://' &&
	    ctl scan-qr "$(cat "$tmp/$1.qr")" "$2" >/dev/null 2>&1
}

need mkfifo sqlite3
if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1

start alice
start bob
link alice $A
link bob $B
check "both engines link and log in" wait_grep "$tmp/alice.out" '^connected '
wait_grep "$tmp/bob.out" '^connected '
wait_grep "$tmp/alice.out" '^prekeys-uploaded '
wait_grep "$tmp/bob.out" '^prekeys-uploaded '

# 1. kill -9 right after a send is queued.
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $BJ survives kill -9" >&3
queued_after "$tmp/alice.out" "$nq" >/dev/null
kill -9 "$alice_pid"
wait "$alice_pid" 2>/dev/null
exec 3>&-
id=$(sed -n 's/^queued //p' "$tmp/alice.out" | tail -n 1)
check "alice's engine is killed right after queuing message ${id:-none}" [ -n "$id" ]
start alice
# The message may have left before the kill: then bob's delivery receipt,
# queued for alice, can come before the ack of the resend.
check "started again, it sends the queued message: the server acks it (or bob's receipt comes first)" \
    wait_grep "$tmp/alice.out" "^dm-state $BJ $id (sent|delivered|read)\$"
[ $? -eq 0 ] || diag "$tmp/alice.out"
check "bob gets it, with the id it was queued with" \
    wait_grep "$tmp/bob.out" "^dm-message $AJ $id from_me=0 .*: survives kill -9\$"

# 2. bob dies after storing an incoming message, before its ack.
echo "quit" >&4
wait_pid "$bob_pid"
exec 4>&-
start bob --crash-after-receive
wait_count "$tmp/bob.out" '^connected ' 2
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "send $BJ stored before the crash" >&3
id2=$(queued_after "$tmp/alice.out" "$nq")
wait_pid "$bob_pid"
check "bob's engine dies right after storing message ${id2:-none} (status $status)" \
    sh -c "[ -n '$id2' ] && [ '$status' -eq 9 ]"
exec 4>&-
# The UI hears of a message only after its commit, so the crash (in the
# commit) comes before any dm-message line: the commit said it.
check "... having committed it (and not shown it before the commit)" sh -c \
    "grep -q '^crash after receive\$' '$tmp/bob.out' &&
    ! grep -q '^dm-message $AJ $id2 ' '$tmp/bob.out'"
before=$(count_lines "$tmp/bob.out" "^dm-message $AJ $id2 ")
start bob
wait_count "$tmp/bob.out" '^connected ' 3
echo "send $BJ and life goes on" >&3
check "the next message decrypts" \
    wait_grep "$tmp/bob.out" "^dm-message $AJ .*: and life goes on\$"
[ $? -eq 0 ] || { diag "$tmp/bob.out"; diag "$tmp/bob.err"; }
# The sim redelivers at the login, before the next message: what came
# again has come by now.
check "after the restart the redelivered copy is not stored again" \
    [ "$(count_lines "$tmp/bob.out" "^dm-message $AJ $id2 ")" = "$before" ]
check "... and the message of the kill -9 reached bob exactly once" \
    [ "$(count_lines "$tmp/bob.out" "^dm-message $AJ $id ")" = 1 ]
n_store=$(sqlite3 "$tmp/bob.d/wachat.db" "SELECT count(*) FROM message WHERE id = '$id2'" 2>/dev/null)
check "bob's database holds message $id2 once (${n_store:-?} rows)" [ "${n_store:-0}" -eq 1 ]

echo quit >&3
echo quit >&4
sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err 2>/dev/null; then
	not_ok "no sanitizer report"
	for f in "$tmp"/*.err; do diag "$f"; done
else
	ok "no sanitizer report"
fi
finish_tap
