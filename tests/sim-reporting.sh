#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The reporting token of 1:1 sends (issue 16, point 1; proto/reporting.h,
# protocol.md 9.4).  alice's wachat engine (tests/wa-eng-driver, real
# store) sends to bob, a simulated phone: a text, a reply and an edit to
# his PN chat, and a text to his LID chat.  The phone decrypts each and
# checks the stanza's <reporting><reporting_token v="2"> against the
# messageSecret inside the Message it read, from alice's user JID to its
# own in the chat's namespace; its inbox (GET /admin/mock-phone/inbox)
# says matched, mismatched or absent.  A text and a reply must carry a
# token that matches; an edit (editedMessage keeps no field, as Baileys
# and whatsmeow) goes without one.  Then a text to a LID and to a PN
# group of the two: the group stanza carries one too, checked by bob's
# phone against the skmsg's content, from alice to the group.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-groups-lib.sh"
# A failing run may outlive the engine's deadline: a write to its pipe
# then fails (EPIPE) instead of killing the script.
trap "" PIPE
A=15550000001
B=15559000001
BL=200000000000001
BJ=$B@s.whatsapp.net
BLJ=$BL@lid

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null
ctl contact $B $BL bob $A >/dev/null
check "alice's engine links and logs in" alice_start

# inbox_has ID REGEX: bob's phone shows message ID with REGEX after it.
inbox_has() {
	ctl phone-inbox $B >"$tmp/in" 2>&1
	grep -Eq "\"id\":\"$1\",[^}]*$2" "$tmp/in"
}
# grep_inbox REGEX: bob's phone shows a message matching REGEX.
grep_inbox() {
	ctl phone-inbox $B >"$tmp/in" 2>&1
	grep -Eq "$1" "$tmp/in"
}
# sent ID TEXT CHAT WHAT: ID reached bob's phone with TEXT and a matching token.
sent() {
	check "$4: delivered" \
	    wait_grep "$tmp/alice.out" "^dm-state $3 $1 delivered\$" 300 ||
	    { diag "$tmp/alice.out"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
	# Delivered means read: the phone reads before it sends the receipt.
	check "$4: bob's phone read it" \
	    wait_cmd 50 inbox_has "$1" "\"text\":\"$2\"" || diag "$tmp/in"
	check "$4: ... with a reporting token that matches" \
	    inbox_has "$1" "\"text\":\"$2\"[^}]*\"reporting\":\"matched\"" ||
	    diag "$tmp/in"
}

id=$(alice_send "$BJ" "hello bob")
sent "$id" "hello bob" "$BJ" "a text to bob's PN chat"
nq=$(grep -c '^queued ' "$tmp/alice.out")
echo "reply $BJ $id $BJ yes indeed" >&3
rid=$(queued_after "$tmp/alice.out" "$nq" 600)
sent "$rid" "yes indeed" "$BJ" "a reply (extendedTextMessage with contextInfo)"
check "... and it is a reply to the text" inbox_has "$rid" "\"quoted_id\":\"$id\""
lid=$(alice_send "$BLJ" "hello lid")
sent "$lid" "hello lid" "$BLJ" "a text to bob's LID chat"
echo "edit $BJ $id hello again" >&3
check "an edit reaches bob's phone" wait_for grep_inbox \
    "\"kind\":\"edit\",\"text\":\"hello again\"[^}]*\"target_id\":\"$id\"" ||
    diag "$tmp/in"
check "... without a token (its editedMessage keeps no field)" grep_inbox \
    "\"kind\":\"edit\",\"text\":\"hello again\"[^}]*\"target_id\":\"$id\"[^}]*\"reporting\":\"absent\"" ||
    diag "$tmp/in"
check "no message bob read has a mismatched token" \
    sh -c "! grep -q '\"reporting\":\"mismatched\"' '$tmp/in'"

# Groups: the token goes on the group <message> too (whatsmeow sendGroup,
# Baileys relayMessage), from alice's user JID in the group's namespace
# to the group; bob's phone checks it against the skmsg's content.
for mode in lid pn; do
	if [ $mode = pn ]; then opt=--pn; else opt=; fi
	ctl group-create "rep $mode" $opt $A $B >"$tmp/g" 2>&1
	G=$(json_str id "$tmp/g")@g.us
	check "a $mode group of alice and bob" test "$G" != "@g.us" || diag "$tmp/g"
	gid=$(alice_send "$G" "hello $mode group")
	check "a text to the $mode group: bob's phone read it" \
	    wait_ctl "\"id\":\"$gid\",[^}]*\"text\":\"hello $mode group\"" \
	    group-inbox $B "$G" ||
	    { diag "$tmp/wc"; grep -v '^#' "$tmp/alice.err" | tail -n 15 | sed 's/^/# /'; }
	check "... with a reporting token that matches" \
	    grep -q "\"id\":\"$gid\",[^}]*\"text\":\"hello $mode group\",\"reporting\":\"matched\"" "$tmp/wc" ||
	    diag "$tmp/wc"
done
alice_stop
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0
no_sanitizer
finish_tap
