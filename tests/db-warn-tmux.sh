#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A damaged database stays in sight (issue 15 point 8): wachat in a
# detached 100x30 tmux pane against wachat-sim, linked as alice, quits;
# one page of its database (the reaction table's root, which no start-up
# read touches) is damaged, and wachat starts again.  The background
# integrity check finds it (the log names the page), and the status line
# says "database damaged: see wachat backup / --fresh-db" beside
# "connected as", not only for a while: also after the connection drops
# and comes back, until quit.  TAP.  Every wait is bounded; tmux, wachat and the sim are killed
# at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
FLIP="python3 $s/tests/db-flip.py"
A=15550000001
WARN='database damaged: see wachat backup / --fresh-db'

. "${top_srcdir:-.}/tests/tmux-lib.sh"
for t in python3 sqlite3; do
	command -v "$t" >/dev/null 2>&1 || not_ok "the tool $t is installed"
done

# The pane's command: wachat's pid to $tmp/pid.
cat >"$tmp/run.sh" <<RUN
#!/bin/sh
echo \$\$ >'$tmp/pid'
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME'
exec '$W' --url "\$1" --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' 2>>'$tmp/w.err'
RUN

# quit: Ctrl-q, and wait until wachat is gone.
quit() {
	pid=$(cat "$tmp/pid" 2>/dev/null)
	tm send-keys -t wachat C-q
	i=0
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "${pid:-0}" 2>/dev/null
}

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1

tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#' 600
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >/dev/null 2>&1
check "wachat links and connects" wait_pane "connected as .*\\+$A" 200
failed_now && show
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys' 600
check "the first start's integrity check is ok" \
    wait_grep "$LOG" 'integrity check: ok' 600
check "Ctrl-q quits wachat" quit
tm kill-server >/dev/null 2>&1

root=$(sqlite3 "$tmp/data/wachat.db" "SELECT rootpage FROM sqlite_master WHERE name = 'reaction'")
psz=$(sqlite3 "$tmp/data/wachat.db" 'PRAGMA page_size')
$FLIP flip "$tmp/data/wachat.db" $(((root - 1) * psz)) 1
: >"$LOG"

tm new-session -d -s wachat -x 100 -y 30 "sh '$tmp/run.sh' '$URL'"
check "started again on the damaged database, its background check logs the damage" \
    wait_grep "$LOG" 'integrity check: the database is malformed' 600
failed_now && show
check "the status line says the database is damaged, beside \"connected as\"" \
    wait_pane "^ *$WARN \\| connected as .*\\+$A" 300
failed_now && show
ctl drop last >/dev/null 2>&1
check "the connection drops: the warning stays beside the reconnection" \
    wait_pane "^ *$WARN \\| (connecting|reconnecting)" 300
failed_now && show
check "... and beside \"connected as\" once connected again" \
    wait_pane "^ *$WARN \\| connected as .*\\+$A" 300
failed_now && show
check "Ctrl-q quits wachat" quit
check "... and the damaged file is still there, not moved aside" \
    sh -c "[ -f '$tmp/data/wachat.db' ] && ! ls '$tmp/data' | grep -q damaged"
tm kill-server >/dev/null 2>&1

finish_sim_tmux
