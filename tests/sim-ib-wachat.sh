#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat and the <ib> stanzas of a strict sim (issue 16, points 4 and 8;
# protocol.md 3.4, 7.2, 11.6):
#  (a) a backlog of 450 messages queued while wachat was away arrives
#      whole at its next login, pulled in batches (the sim sends only a
#      primer of 5 unasked, then what <ib><offline_batch count/> asks
#      for); each message acked; none held back;
#  (b) <ib><unified_session id/> after pairing and after each login, the
#      id (now + 3 days) mod 7 days in ms, by our clock within ten
#      minutes;
#  (c) the registration's DeviceProps as the sim (the phone) records
#      them: os "wachat (<uname -s>)", platformType DESKTOP (7), so the
#      phone's Linked devices list shows "wachat (Linux)"; the history-sync
#      support* flags and thumbnailSyncDaysLimit 60.
# TAP.  Every wait is bounded; wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
need python3
W="$b/wachat"
A=15550000001
B=15550000002
AJ=$A@s.whatsapp.net
N=450
HOME="$tmp/home"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -m 700 "$HOME"
D="$tmp/data"

# js PY-EXPR: evaluate PY-EXPR with s = /admin/status, m =
# /admin/messages, c = /admin/connections (JSON); true when it holds.
js() {
	ctl status >"$tmp/st.json" 2>/dev/null
	ctl messages >"$tmp/msgs.json" 2>/dev/null
	ctl connections >"$tmp/conns.json" 2>/dev/null
	python3 - "$tmp" "$1" <<'EOF'
import json, sys, time
t = sys.argv[1]
s = json.load(open(t + '/st.json'))
m = json.load(open(t + '/msgs.json'))
c = json.load(open(t + '/conns.json'))
now_ms = int(time.time() * 1000)
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

start_wachat() {
	"$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$D" \
	    --qr-file "$tmp/qr" --log-file "$tmp/log" </dev/null \
	    >>"$tmp/w" 2>&1 &
	wpid=$!
	bg_pids="$bg_pids $wpid"
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl account $B 100000000000002 bob >/dev/null 2>&1
start_wachat
wait_grep "$tmp/qr" 'https://' 300
ctl scan-qr "$(cat "$tmp/qr")" >/dev/null 2>&1
check "wachat links and connects" wait_grep "$tmp/w" "^connected as \\+$A\$" 300 ||
    diag "$tmp/w"

# (c) DeviceProps, as the phone sees them.
OS="wachat ($(uname -s))"
check "(c) one registration, DeviceProps os \"$OS\", platformType DESKTOP (7)" \
    js "s['attempts']['registrations'] == 1 and s['registration_props'][-1]['os'] == '$OS' and s['registration_props'][-1]['platform_type'] == 7" ||
    diag "$tmp/st.json"
check "(c) the phone's Linked devices list shows \"$OS\"" \
    js "s['registration_props'][-1]['linked_devices_name'] == '$OS'"
check "(c) the history-sync support* flags of whatsmeow/whatsapp-rust, thumbnailSyncDaysLimit 60, requireFullSync" \
    js "set(s['registration_props'][-1]['history_support']) >= {'supportCallLogHistory', 'supportBotUserAgentChatHistory', 'supportCagReactionsAndPolls', 'supportBizHostedMsg', 'supportRecentSyncChunkMessageCountTuning', 'supportHostedGroupMsg', 'supportFbidBotChatHistory', 'supportMessageAssociation', 'supportGroupHistory', 'supportManusHistory', 'supportHatchHistory'} and s['registration_props'][-1]['thumbnail_sync_days_limit'] == 60 and s['registration_props'][-1]['require_full_sync']"

# (b) unified_session after pairing and after the login.
US="abs((now_ms + 3 * 86400000) % (7 * 86400000) - u['id']) < 600000"
check "(b) unified_session after pairing, its id (now + 3 days) mod 7 days in ms" \
    wait_for js "any(u['after'] == 'pairing' and u['plausible'] and $US for u in s['unified_session_ids'])" ||
    diag "$tmp/st.json"
check "(b) unified_session after the login, its id (now + 3 days) mod 7 days in ms" \
    wait_for js "any(u['after'] == 'login' and u['plausible'] and $US for u in s['unified_session_ids'])"

# (a) away; bob's phone sends N; back.
wait_grep "$tmp/log" 'prekeys: event 6, [0-9]+ keys' 300
kill "$wpid"
wait_pid "$wpid" 300
check "wachat stops" [ "$status" -eq 0 ]
check "the sim sees wachat gone" wait_for js "not any(x.get('jid') == '$A:1@s.whatsapp.net' for x in c)"
i=1
while [ "$i" -le "$N" ]; do
	ctl phone-send $B $AJ "backlog $i" >/dev/null 2>&1
	i=$((i + 1))
done
check "the sim queues the $N messages for $A:1 (none delivered)" \
    js "sum(1 for x in m if x['to'] in ('$A:1@s.whatsapp.net', '100000000000001:1@lid') and x['kind'] == 'message' and not x['acked']) == $N"
: >"$tmp/w"
start_wachat
check "wachat logs in again" wait_grep "$tmp/w" "^connected as \\+$A\$" 300 ||
    diag "$tmp/w"
check "(a) all $N messages of the backlog arrive" \
    wait_count "$tmp/w" 'from .*: backlog [0-9]+$' $N 1200 ||
    { echo "# got $(count_lines "$tmp/w" 'from .*: backlog [0-9]+$')"; tail -n 5 "$tmp/sim.log" | sed 's/^/# /'; }
check "(a) each one acked" \
    wait_for js "sum(1 for x in m if x['to'] in ('$A:1@s.whatsapp.net', '100000000000001:1@lid') and x['kind'] == 'message' and x['acked']) == $N"
check "(a) pulled in batches: the login's connection asked more than once, got $N offline, none held back" \
    js "any(x.get('jid') == '$A:1@s.whatsapp.net' and x.get('offline_sent') == $N and x.get('offline_batches', 0) >= 2 and x.get('offline_held') == 0 and x.get('offline_done') for x in c) and s['offline_held'] == 0" ||
    diag "$tmp/conns.json"
check "(a) the backlog ends with <ib><offline count=$N/> (sim log)" \
    has_line "$tmp/sim.log" "offline backlog done: $N sent in [0-9]+ batch requests"
check "(b) a unified_session for each of the two logins" \
    js "sum(1 for u in s['unified_session_ids'] if u['after'] == 'login' and u['plausible']) == 2 and s['attempts']['logins'] == 2"
check "wachat runs on" kill -0 "$wpid"
kill "$wpid"
wait_pid "$wpid" 300
sim_stop
finish_tap
