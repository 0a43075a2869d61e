#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: kill -9 in the middle of a large app-state import resumes to
# the state an uninterrupted one gives.  The phone's address book has
# 8,000 more contacts (the sim's big-snapshot fault: one patch of 8,000
# mutations, a snapshot of about 2 MB); wachat in a detached 100x30 tmux
# pane links, and is killed with SIGKILL once the phone has served
# critical_unblock_low's snapshot, while its download is under way (the
# sim's media host answers after 5 s, so that the moment is there on a
# busy machine too), started again (the media host at full speed), and
# ends with every contact's address-book name,
# each collection's version and LTHash as the phone has them (the store
# read with sqlite3, the phone's through /admin/appstate).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001

need openssl
need sqlite3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
test_cert
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact 15550000002 100000000000002 "Echo" $A >/dev/null 2>&1
ctl appstate-fault $A big-snapshot >/dev/null 2>&1
ctl history-media-delay 5000 >/dev/null 2>&1

# served: the phone has served critical_unblock_low's snapshot to wachat.
served() {
	ctl appstate $A >"$tmp/st" 2>&1 && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [x for x in d["collections"] if x["name"] == "critical_unblock_low"]
sys.exit(0 if c and c[0].get("snapshots", 0) > 0 else 1)' "$tmp/st"
}
# same: the store's contact names, collection versions and LTHashes are
# the phone's (the differences in $tmp/diff).
same() {
	ctl appstate $A >"$tmp/st" 2>&1 &&
	    sqlite3 -readonly -json "$tmp/data/wachat.db" \
	    "SELECT jid, name FROM contact" >"$tmp/contacts" 2>/dev/null &&
	    sqlite3 -readonly -json "$tmp/data/wachat.db" \
	    "SELECT collection, version, hex(hash) AS hash FROM as_state" \
	    >"$tmp/colls" 2>/dev/null && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def load(p):
    t = open(p).read().strip()
    return json.loads(t) if t else []
names = {r["jid"]: r["name"] for r in load(sys.argv[2])}
ours = {r["collection"]: r for r in load(sys.argv[3])}
bad = []
n = 0
for c in d["collections"]:
    o = ours.get(c["name"])
    if c["version"] > 0 and (o is None or o["version"] != c["version"] or
                             o["hash"].lower() != c["hash"].lower()):
        bad.append("%s: phone v%d, wachat %s" % (c["name"], c["version"],
                   "none" if o is None else "v%d" % o["version"]))
    for r in c.get("actions", []):
        a = r.get("action", {})
        if a.get("kind") == "contact" and a.get("full_name"):
            n += 1
            if names.get(a["chat"]) != a["full_name"]:
                bad.append("%s: %r, phone %r" % (a["chat"],
                           names.get(a["chat"]), a["full_name"]))
if n < 8000:
    bad.append("the phone names only %d contacts" % n)
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)' "$tmp/st" "$tmp/contacts" "$tmp/colls" \
	    >"$tmp/diff"
}
differs() {
	! same
}

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
check "the phone serves wachat critical_unblock_low's snapshot (the import begins)" \
    wait_for served
failed_now && diag "$tmp/st"
pid=$(pgrep -P "$(tm list-panes -t wachat -F '#{pane_pid}')" 2>/dev/null |
    head -n 1)
check "wachat is killed with SIGKILL in the middle of the import" \
    sh -c "[ -n '$pid' ] && kill -9 '$pid'"
st=$(exit_status)
check "... its exit status is the kill's (137)" [ "$st" = 137 ]
check "... before it committed the snapshot (the download was under way)" \
    sh -c "! grep -q 'critical_unblock_low: snapshot [0-9]* committed' '$LOG'"
tm kill-server >/dev/null 2>&1
check "... so the store is not yet the phone's (the names are missing)" \
    differs
ctl history-media-delay 0 >/dev/null 2>&1

start_pane --ca-file "$tmp/cert.pem"
check "started again: the store's 8,000 contact names, versions and LTHashes are the phone's" \
    wait_for same
failed_now && { diag "$tmp/diff"; show; }
check "the screen shows the chat list, connected" wait_pane "connected as .*\\+$A"
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

finish_sim_tmux
