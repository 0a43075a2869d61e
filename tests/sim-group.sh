#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Group chats through wachat-sim (protocol.md 10, 11.7).  First the admin
# commands through `wachat-sim ctl` with simulated phones only: a
# PN-addressed group of sim:3 (the phones' SKDM, skmsg, what each phone
# read, a removal that rotates the sender key, an add, the subject) and a
# LID one, a reinstalled phone's retry, and the refusals; then
# tests/sim-interop/baileys-group.mjs, once with LID groups and once with
# PN groups: two Baileys clients and simulated members (create,
# notifications, texts every way, a reinstalled phone's retry, remove and
# add back, subject, phash, leave, a group of 256 phones), its TAP
# renumbered after the first part.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

# json_str KEY FILE: the first string value of KEY in FILE.
json_str() {
	sed -n "s/^[^{]*{\"$1\":\"\([^\"]*\)\".*/\1/p; t; s/.*,\"$1\":\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
A=15550000001
out=$(ctl groups)
check "ctl groups lists nothing before a group is made" test "$out" = "[]"
ctl account $A "" alice >/dev/null
ctl group-create "pn group" --pn $A sim:3 >"$tmp/g1" 2>&1
check "group-create --pn with sim:3: a PN group of 4, alice superadmin, 3 new simulated contacts" \
    grep -q '"subject":"pn group".*"creator":"15550000001".*"addressing_mode":"pn","size":4,.*"participants":\[{"jid":"15550000001@s.whatsapp.net","pn":"15550000001",.*"type":"superadmin"},{"jid":"15559000001@s.whatsapp.net".*"created_contacts":\["15559000001","15559000002","15559000003"\]' "$tmp/g1" ||
    diag "$tmp/g1"
G=$(json_str id "$tmp/g1")
check "its JID is 18 digits @g.us" \
    grep -Eq "\"jid\":\"$G@g.us\"" "$tmp/g1"
ctl group-info "$G@g.us" >"$tmp/gi"
check "group-info by JID answers the same group" \
    grep -q "\"id\":\"$G\",\"subject\":\"pn group\"" "$tmp/gi"

ctl phone-group-send 15559000001 "$G" "hello pn group" >"$tmp/s1"
ID1=$(json_str id "$tmp/s1")
check "phone-group-send: the SKDM goes pairwise (pkmsg) to the 3 other member phones, by PN" \
    grep -q '"skdm":\[{"jid":"15550000001@s.whatsapp.net","enc":"pkmsg"},{"jid":"15559000002@s.whatsapp.net","enc":"pkmsg"},{"jid":"15559000003@s.whatsapp.net","enc":"pkmsg"}\],"skipped":0' "$tmp/s1" ||
    diag "$tmp/s1"
wait_ctl '"decrypted":3' group-delivery "$G" "$ID1"
check "group-delivery: the 3 other phones read exactly \"hello pn group\"; only the sender is missing" \
    grep -q "\"id\":\"$ID1\",\"members\":4,\"phones\":4,\"decrypted\":3,\"texts\":{\"hello pn group\":3},\"missing\":\[\"15559000001\"\]" "$tmp/wc" ||
    diag "$tmp/wc"
ctl group-inbox 15559000002 "$G" >"$tmp/i2"
check "group-inbox: sim 2 read it from sim 1's PN device, as skmsg" \
    grep -q "\"inbox\":\[{\"seq\":1,\"group\":\"$G@g.us\",\"id\":\"$ID1\",\"from\":\"15559000001@s.whatsapp.net\",\"enc\":\"skmsg\",.*\"kind\":\"text\",\"text\":\"hello pn group\",\"reporting\":\"absent\"}\]" "$tmp/i2" ||
    diag "$tmp/i2"
check "the sim routed it to each other phone with pkmsg and skmsg, from=the sender's device" \
    wait_ctl "\"id\":\"$ID1\",\"type\":\"text\",\"from\":\"15559000001@s.whatsapp.net\",\"to\":\"15559000002@s.whatsapp.net\",\"enc\":\[\"pkmsg\",\"skmsg\"\]" messages
check "and relayed sim 2's receipt to sim 1 (participant=sim 2)" \
    wait_ctl "\"kind\":\"receipt\",\"id\":\"$ID1\",\"type\":\"\",\"from\":\"15559000002@s.whatsapp.net\",\"to\":\"15559000001@s.whatsapp.net\"" messages
check "the members' phones got the w:gp2 create notification" \
    wait_ctl "\"kind\":\"notification\",\"id\":\"sim-gp-[0-9]*\",\"type\":\"w:gp2\",\"from\":\"$G@g.us\",\"to\":\"15559000003@s.whatsapp.net\",.*\"acked\":true" messages

ctl phone-group-send 15559000001 "$G" "second" >"$tmp/s2"
check "a second send carries no SKDM (every device has the key)" \
    grep -q '"skdm":\[\],"skipped":0' "$tmp/s2"
ctl phone-group-send 15559000002 "$G" "reply from two" >"$tmp/s3"
wait_ctl 'reply from two' group-inbox 15559000001 "$G"
check "sim 1 reads sim 2's text (sim 2's own sender key)" \
    grep -q '"from":"15559000002@s.whatsapp.net","enc":"skmsg",.*"text":"reply from two"' "$tmp/wc"

ctl phone-forget 15559000002 >/dev/null
ctl phone-group-send 15559000001 "$G" "after forget" >"$tmp/s3b"
IDF=$(json_str id "$tmp/s3b")
wait_ctl 'after forget' group-inbox 15559000002 "$G"
check "a reinstalled phone (sim 2) sends a retry receipt; sim 1 resends text and SKDM pairwise, sim 2 reads it" \
    sh -c "grep -q '\"skdm\":\[\]' '$tmp/s3b' && grep -Eq '\"id\":\"$IDF\",\"from\":\"15559000001@s.whatsapp.net\",\"enc\":\"pkmsg\",.*\"text\":\"after forget\"' '$tmp/wc'" ||
    diag "$tmp/wc"
# retried: the retry receipt and both sends of $IDF to sim 2 are routed.
retried() {
	ctl messages >"$tmp/m2" 2>&1
	sh -c "grep -q '\"kind\":\"receipt\",\"id\":\"$IDF\",\"type\":\"retry\",\"from\":\"15559000002@s.whatsapp.net\",\"to\":\"15559000001@s.whatsapp.net\"' '$tmp/m2' && [ \$(grep -o '\"id\":\"$IDF\",\"type\":\"text\",\"from\":\"15559000001@s.whatsapp.net\",\"to\":\"15559000002@s.whatsapp.net\"' '$tmp/m2' | wc -l) -eq 2 ]"
}
check "the retry receipt went from sim 2 to sim 1 through the sim, and the resend to sim 2 only" \
    wait_for retried || diag "$tmp/m2"
ctl group-remove "$G" 15559000003 >"$tmp/rm"
check "group-remove: changed 1, the group has 3 members" \
    grep -q '"size":3,.*"changed":1,"results":\[{"pn":"15559000003","status":"200"}\]' "$tmp/rm" ||
    diag "$tmp/rm"
ctl phone-group-send 15559000001 "$G" "after remove" >"$tmp/s4"
ID4=$(json_str id "$tmp/s4")
check "after a removal sim 1 has a new sender key: its SKDM goes again, to the 2 remaining phones" \
    grep -Eq '"skdm":\[\{"jid":"15550000001@s.whatsapp.net","enc":"(pkmsg|msg)"\},\{"jid":"15559000002@s.whatsapp.net","enc":"(pkmsg|msg)"\}\]' "$tmp/s4" ||
    diag "$tmp/s4"
wait_ctl '"decrypted":2' group-delivery "$G" "$ID4"
ctl group-inbox 15559000003 "$G" >"$tmp/i3"
check "the remaining phones read it; sim 3, removed, got nothing" \
    sh -c "grep -q '\"texts\":{\"after remove\":2}' '$tmp/wc' && ! grep -q 'after remove' '$tmp/i3' && grep -q 'hello pn group' '$tmp/i3'"
ctl group-add "$G" 15559000003 >"$tmp/add"
ctl phone-group-send 15559000001 "$G" "after add" >"$tmp/s5"
ID5=$(json_str id "$tmp/s5")
wait_ctl '"decrypted":3' group-delivery "$G" "$ID5"
check "group-add brings sim 3 back: it gets the SKDM and reads \"after add\"" \
    sh -c "grep -q '\"changed\":1' '$tmp/add' && grep -q '\"texts\":{\"after add\":3}' '$tmp/wc' && grep -q '\"skdm\":\[{\"jid\":\"15559000003@s.whatsapp.net\",\"enc\":\"pkmsg\"}\]' '$tmp/s5'" ||
    diag "$tmp/s5"
ctl group-subject "$G" "renamed" >/dev/null
ctl group-info "$G" >"$tmp/gi2"
check "group-subject renames it (s_o the creator)" \
    grep -q '"subject":"renamed",.*"s_o":"15550000001"' "$tmp/gi2"
ctl group-promote "$G" 15559000002 >/dev/null
ctl group-info "$G" >"$tmp/gi3"
check "group-promote makes sim 2 an admin" \
    grep -q '"pn":"15559000002",[^}]*"type":"admin"' "$tmp/gi3"

ctl group-create "lid group" $A sim:2 >"$tmp/g2"
L1=$(ctl accounts | tr '{' '\n' | grep '"pn":"15559000004"' | sed -n 's/.*"lid":"\([0-9]*\)".*/\1/p')
check "a group is LID-addressed by default: participants jid=LID" \
    sh -c "[ -n '$L1' ] && grep -q '\"addressing_mode\":\"lid\",\"size\":3,.*{\"jid\":\"$L1@lid\",\"pn\":\"15559000004\"' '$tmp/g2'" ||
    diag "$tmp/g2"
G2=$(json_str id "$tmp/g2")
ctl phone-group-send 15559000004 "$G2" "lid hello" >"$tmp/s6"
wait_ctl 'lid hello' group-inbox 15559000005 "$G2"
check "in a LID group the sender is its LID device" \
    grep -q "\"from\":\"$L1@lid\",\"enc\":\"skmsg\",.*\"text\":\"lid hello\"" "$tmp/wc"

ctl status >"$tmp/st"
check "status counts the groups made (2) and shows the addressing of client-made groups (lid)" \
    grep -q '"groups":2,"group_addressing":"lid"' "$tmp/st"
ctl group-info 120363999999999999 >"$tmp/e1" 2>&1
st=$?
check "group-info of an unknown group fails (404, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'no such group' '$tmp/e1'"
ctl contact 15550000009 "" dave >/dev/null
ctl phone-group-send 15550000009 "$G" "let me in" >"$tmp/e2" 2>&1
st=$?
check "phone-group-send from a non-member fails (403, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'not a member' '$tmp/e2'"
ctl group-create "nobody" >"$tmp/e3" 2>&1
st=$?
check "group-create without creator or members fails (400, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'give a creator or members' '$tmp/e3'"
ctl group-create "x" $A sim:0 >"$tmp/e4" 2>&1
st=$?
check "group-create with sim:0 fails (400, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'sim:N takes N from 1 to 4096' '$tmp/e4'"
ctl group-add "$G" >/dev/null 2>&1
check "group-add without members is a usage error (exit 2)" test $? -eq 2
ctl group-add "$G" 15550000042 >"$tmp/e5" 2>&1
st=$?
check "group-add of an unknown PN fails (400, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'no account or contact' '$tmp/e5'"
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0

# The Baileys part, numbered on from here: LID groups, then PN groups.
for mode in lid pn; do
	(GROUP_MODE=$mode sim_node_run baileys-group.mjs) >"$tmp/node.tap" \
	    2>"$tmp/node.err"
	node_rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*)
			ok "$mode: ${line#ok [0-9]* - }" ;;
		"not ok "*)
			not_ok "$mode: ${line#not ok [0-9]* - }" ;;
		"Bail out!"*)
			echo "$line"
			exit 1 ;;
		1..*)
			;;
		"# "*)
			echo "$line" ;;
		*)
			;;	# libsignal's console output
		esac
	done <"$tmp/node.tap"
	check "the Baileys scenario ($mode groups) exits 0" test "$node_rc" -eq 0
	[ "$node_rc" -eq 0 ] || diag "$tmp/node.err"
done
finish_tap
