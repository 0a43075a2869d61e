#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Message info (issue 20), in a real terminal: wachat in a tmux pane
# against wachat-sim, linked as alice.  Our text to bob: Alt-? on it
# shows bob delivered at a time (his phone's delivery receipt) and read
# "—"; bob's phone's read receipt fills the read time in place; Esc
# closes it.  On bob's text Alt-? says it is for our messages.  In a
# group of two simulated members: each member is listed, each delivered
# (their phones' receipts), the one whose phone sent a read receipt
# read, the other "—".  The times survive a restart (the store keeps
# them per recipient, migration 20).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"
need python3 curl

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# id_of PN TEXT [group]: the id of the message TEXT in PN's phone's
# inbox (its group inbox).
id_of() {
	if [ "${3:-}" = group ]; then
		ctl group-inbox "$1"
	else
		ctl phone-inbox "$1"
	fi 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for m in d if isinstance(d, list) else d.get("inbox", []):
    if m.get("text") == sys.argv[1]:
        print(m["id"])
        break' "$2"
}
has_id() {
	[ -n "$(id_of "$@")" ]
}
start() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 120 -y 30 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' 2>>'$tmp/w.err'; \
	    echo \$? >'$tmp/status'"
}
# quit WHAT: Esc closes the info, Ctrl-q quits with status 0.
quit() {
	tm send-keys -t wachat Escape
	check "$1: Esc closes the info" wait_gone 'Message info'
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "$1: Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
	tm kill-server 2>/dev/null
}
start
link_and_connect

sent $B "hi alice" "$tmp/b1" >/dev/null
check "bob's chat is listed" wait_pane 'hi alice'
tm send-keys -t wachat Tab
check "Tab opens it" wait_pane '│ +hi alice$'
tm send-keys -t wachat -l "hello bob"
tm send-keys -t wachat Enter
check "bob's phone decrypts our text" wait_for has_id $B "hello bob"
ID=$(id_of $B "hello bob")
tm send-keys -t wachat Up
check "our text is selected" wait_pane 'Enter reply.*delete'
tm send-keys -t wachat M-?
check "Alt-? shows the message info" wait_pane 'Message info \(Esc closes\)'
check "... when it was sent" wait_pane '│ +sent [0-9]{2}:[0-9]{2} *$'
check "... bob delivered at a time, not read yet" \
    wait_pane '│ +bob +delivered [0-9]{2}:[0-9]{2} +read — *$'
failed_now && show
ctl phone-receipt $B $AJ "$ID" read >/dev/null 2>&1
check "bob's read receipt: the read time, in place" \
    wait_pane '│ +bob +delivered [0-9]{2}:[0-9]{2} +read [0-9]{2}:[0-9]{2} *$'
tm send-keys -t wachat Escape
check "Esc closes it" wait_gone 'Message info'
tm send-keys -t wachat Up Up
tm send-keys -t wachat M-?
check "on bob's text: for our own messages only" \
    wait_pane 'message info is for your own messages'
tm send-keys -t wachat Escape
failed_now && show

ctl group-create "Info test" --lid $A sim:2 >"$tmp/g.json" 2>&1
G=$(sed -n 's/.*"jid":"\([0-9-]*@g\.us\)".*/\1/p' "$tmp/g.json" | head -n 1)
check "the group shows in the list" wait_pane 'Info test'
tm send-keys -t wachat C-n
tm send-keys -t wachat -l "Info"
tm send-keys -t wachat Enter
check "the group opens" wait_pane '^.*│ *Info test'
tm send-keys -t wachat -l "hello group"
tm send-keys -t wachat Enter
check "member 1's phone decrypts it" \
    wait_for has_id 15559000001 "hello group" group
check "member 2's phone too" wait_for has_id 15559000002 "hello group" group
GID=$(id_of 15559000001 "hello group" group)
# member 1's phone reads it: a group read receipt naming us, the author
curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"pn\":\"15559000001\",\"to\":\"$G\",\"id\":\"$GID\",\"type\":\"read\",\"participant\":\"$AJ\"}" \
    "$ADMIN/admin/mock-phone/receipt" >"$tmp/rr" 2>&1
tm send-keys -t wachat Up
tm send-keys -t wachat M-?
check "Alt-? in the group: each member listed" \
    wait_panes '│ +\+15559000001 ' '│ +\+15559000002 '
check "... member 2 delivered, not read" \
    wait_pane '│ +\+15559000002 +delivered [0-9]{2}:[0-9]{2} +read — *$'
check "... member 1 delivered and read (its read receipt)" \
    wait_pane '│ +\+15559000001 +delivered [0-9]{2}:[0-9]{2} +read [0-9]{2}:[0-9]{2} *$'
failed_now && { show; diag "$tmp/rr"; diag "$tmp/g.json"; }
quit "the group"

start
check "wachat starts again" wait_pane "connected as .*\\+$A"
tm send-keys -t wachat C-n
tm send-keys -t wachat -l "Info"
tm send-keys -t wachat Enter
check "the group opens again" wait_pane '│ +hello group$'
tm send-keys -t wachat Up
tm send-keys -t wachat M-?
check "after the restart: the times kept" \
    wait_pane '│ +\+15559000001 +delivered [0-9]{2}:[0-9]{2} +read [0-9]{2}:[0-9]{2} *$'
quit "after the restart"
finish_sim_tmux
