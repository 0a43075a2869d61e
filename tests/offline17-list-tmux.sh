#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The chat list (issue 17 point 10): wachat in a 100x36 tmux pane (TZ
# UTC) links as alice to wachat-sim over wss; alice's phone holds a
# history of 14 chats whose newest messages go back about four days
# from now.  Each chat's date in the list is what it should be: a time
# today, "Yesterday", the weekday within the week before, "30 Nov"
# earlier, never a 10-column 2025-11-30.  A message we send to bob shows
# in the list as "You: ..." with its tick; text typed in bob's chat and
# left there shows as "Draft: ..." in bob's row once another chat is
# open; seven lines typed in the input line say that two more lines are
# above the five shown.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003

need openssl
. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
    -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    >"$tmp/openssl.log" 2>&1; then
	echo "Bail out! cannot make a test certificate"
	exit 1
fi
if ! sim_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
URL="wss://127.0.0.1:$PORT/ws/chat"
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1
# A history made "now": chat i's newest message about i * 7 hours ago.
now=$(date +%s)
python3 - "$ADMIN" "$A" "$now" >"$tmp/hist.json" 2>&1 <<'PY'
import json, sys, urllib.request
admin, pn, now = sys.argv[1], sys.argv[2], int(sys.argv[3])
body = json.dumps({"pn": pn, "chats": 14, "messages": 140, "seed": 5,
                   "now": now}).encode()
req = urllib.request.Request(admin + "/admin/history", data=body,
                             headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(req).read().decode())
PY
ctl history $A >"$tmp/phone.json" 2>&1
# The label each 1:1 chat's row should show (name TAB label), as of now.
python3 - "$tmp/phone.json" "$now" >"$tmp/expect" <<'PY'
import datetime as d, json, sys
h = json.load(open(sys.argv[1]))
now = d.datetime.fromtimestamp(int(sys.argv[2]), d.timezone.utc)
for c in h["chat_list"]:
    if c["group"] or not c.get("newest"):
        continue
    t = d.datetime.fromtimestamp(c["newest"]["ts"], d.timezone.utc)
    days = (now.date() - t.date()).days
    if days == 0:
        label = t.strftime("%H:%M")
    elif days == 1:
        label = "Yesterday"
    elif 2 <= days <= 6:
        label = t.strftime("%a")
    else:
        label = t.strftime("%d %b")
    print(c["name"] + "\t" + label)
PY
check "the phone holds a history of 1:1 chats over several days" \
    sh -c "[ \$(wc -l <'$tmp/expect') -ge 8 ]"
failed_now && { diag "$tmp/hist.json"; diag "$tmp/expect"; }

rm -f "$tmp/status"
tm new-session -d -s wachat -x 100 -y 36 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=screen-256color \
    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
    --ca-file '$tmp/cert.pem' --data-dir '$tmp/data' --qr-file '$tmp/qr' \
    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as|history:"
first=$(head -n 1 "$tmp/expect" | cut -f 1)
check "the chat list shows the phone's newest chat ($first)" \
    wait_pane "^ ?$first "
wait_pane 'connected as'
failed_now && show

# Each chat row drawn: its name and, at the right of the list, its label.
n_ok=0 n_all=0 bad=
# row_ok NAME LABEL: the pane's list has a row "NAME ... LABEL│".
row_ok() {
	grep -Eq "^ ?$1 .* $2│" "$tmp/pane"
}
capture
while IFS='	' read -r name label; do
	grep -Eq "^ ?$name " "$tmp/pane" || continue	# below the list
	n_all=$((n_all + 1))
	if row_ok "$name" "$label"; then
		n_ok=$((n_ok + 1))
	else
		bad="$bad [$name: $label]"
	fi
done <"$tmp/expect"
check "every chat row shown has its date as expected ($n_ok of $n_all;$bad)" \
    sh -c "[ $n_all -ge 6 ] && [ $n_ok = $n_all ]"
check "... among them Yesterday and a weekday" \
    sh -c "grep -Eq ' Yesterday│' '$tmp/pane' &&
    grep -Eq ' (Mon|Tue|Wed|Thu|Fri|Sat|Sun)│' '$tmp/pane'"
check "... and no YYYY-MM-DD date" \
    pane_lacks '[0-9]{4}-[0-9]{2}-[0-9]{2}│'
failed_now && { show; diag "$tmp/expect"; }

# Our last message: "You: " and its tick.
tm send-keys -t wachat C-n
input_read
tm send-keys -t wachat -l "$B"
input_read
tm send-keys -t wachat Enter
input_read
tm send-keys -t wachat -l "ours last"
tm send-keys -t wachat Enter
check "a message we send shows in the list as You: with its tick" \
    wait_pane '^ ?You: ours last +(…|✓|✓✓) *│'
failed_now && show

# A draft: typed in bob's chat, left there when another chat opens.
tm send-keys -t wachat -l "half typed"
check "typed in bob's chat" wait_pane '│> half typed'
tm send-keys -t wachat Tab
check "another chat open: bob's row says Draft: half typed" \
    wait_pane '^ ?Draft: half typed *│'
check "... the input line is the other chat's (empty)" wait_pane '│> *$'
failed_now && show

# Seven lines typed: five show, the rule says two more are above.
tm set-buffer -b paste "$(printf 'l1\nl2\nl3\nl4\nl5\nl6\nl7')"
tm paste-buffer -p -d -b paste -t wachat
check "seven lines in the input: the last five show" \
    wait_panes '│> ?l3' '│ *l7'
check "... and the rule over them says 2 more lines above" \
    wait_pane '↑ 2 more lines above'
failed_now && show
tm send-keys -t wachat C-u
input_read

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits cleanly: exit 0" [ "$st" = 0 ]
failed_now && { show; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

finish_sim_tmux
