#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# 1:1 messaging through wachat-sim (issue 6).  First the admin commands
# for it through `wachat-sim ctl` (messages, remove-device and their
# refusals); then unmodified Baileys clients, two accounts (one with two
# companions), exchanging texts both ways with prekey bundles, routing,
# receipts, chat state, presence, devices notifications and offline
# delivery exactly once (tests/sim-interop/baileys-route.mjs, its TAP
# renumbered after the first part).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
out=$(ctl messages)
check "ctl messages lists nothing before any message is routed" \
    test "$out" = "[]"
ctl remove-device 15550000001:1@s.whatsapp.net >"$tmp/rm1" 2>&1
st=$?
check "ctl remove-device of an unknown user fails (404, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'no such user' '$tmp/rm1'"
ctl account 15550000001 "" alice >/dev/null
ctl remove-device 15550000001:1@s.whatsapp.net >"$tmp/rm2" 2>&1
st=$?
check "ctl remove-device of a device never linked fails (404, exit 1)" \
    sh -c "[ $st -eq 1 ] && grep -q 'no such device' '$tmp/rm2'"
ctl remove-device >/dev/null 2>&1
check "ctl remove-device without a JID is a usage error (exit 2)" \
    test $? -eq 2
ctl phone-receipt 15550000001 15550000002@s.whatsapp.net 3EB0AA >"$tmp/pr" 2>&1
check "ctl phone-receipt to a user the sim does not know is taken, not relayed" \
    grep -q '"routed":0' "$tmp/pr"
ctl phone-receipt 15550000009 15550000001@s.whatsapp.net 3EB0AA >/dev/null 2>&1
check "ctl phone-receipt for an unknown account fails (exit 1)" test $? -eq 1
ctl status >"$tmp/status"
check "status counts routed stanzas, chat states, presences and devices notifications (all 0)" \
    grep -q '"routed":0,"chatstates":0,"presences":0,"device_notifications":0' "$tmp/status"
sim_stop
check "wachat-sim exits cleanly" test "$status" -eq 0

# The Baileys part, numbered on from here.
sim_node_tap baileys-route.mjs
finish_tap
