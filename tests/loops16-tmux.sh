#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16, point 5: no endless loops.  wachat in a detached 120x50 tmux
# pane against wachat-sim (2 refs a registration, qr-times 3,2: the QR
# codes last 5 s).
#  a. The QR is shown and nobody scans: when the refs run out wachat
#     registers no more (the sim counts one registration over 12 s, more
#     than two cycles of QR codes), the screen says why and which key
#     starts again; r registers once more and shows a new QR code.
#  b. Linked, a login answered with <failure reason="499"/> (a reason
#     no reference knows): wachat stops trying (the sim's
#     login count stays over 6 s, longer than the first backoffs), the
#     status line says why with the number and the key; Alt-r logs in
#     once more, and connects.
#  c. A login answered with failure 500 (twice) is still retried with
#     the backoff, and connects.
# TAP.  Every wait is bounded; tmux, wachat and the sim are killed at the
# end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
need curl python3
. "${top_srcdir:-.}/tests/tmux-lib.sh"

cat >"$tmp/run.sh" <<RUN
#!/bin/sh
echo \$\$ >'$tmp/pid'
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color HOME='$HOME'
'$W' --url "\$1" --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
    --qr-file '$tmp/qr' --qr-times 3,2 2>>'$tmp/w.err'
echo \$? >'$tmp/status'
RUN

# attempts KEY: the sim's count KEY in /admin/status's "attempts" block.
attempts() {
	curl -s -m 30 "$ADMIN/admin/status" | python3 -c '
import json, sys
print(json.load(sys.stdin)["attempts"][sys.argv[1]])' "$1" 2>/dev/null
}
count_is() {	# count_is KEY N
	[ "$(attempts "$1")" = "$2" ]
}
# stays KEY N SECONDS: the count KEY is N now and at every look for
# SECONDS seconds (what must not happen, watched for that long).
stays() {
	st_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -lt "$st_end" ]; do
		count_is "$1" "$2" || return 1
		sleep 0.2
	done
	count_is "$1" "$2"
}
login_failure() {	# login_failure REASON COUNT
	curl -s -m 30 -X POST -H 'Content-Type: application/json' \
	    -d "{\"reason\":$1,\"count\":$2}" "$ADMIN/admin/login-failure"
}

if ! sim_start --refs 2; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1

# --- a. nobody scans
tm new-session -d -s wachat -x 120 -y 50 "sh '$tmp/run.sh' '$URL'"
check "a QR code is shown" wait_pane 'scan this QR code with your phone'
qr1=$(cat "$tmp/qr" 2>/dev/null)
check "the refs run out: the screen says so and names the key" \
    wait_joined_re 'the QR code expired: nobody scanned it' \
    'Press r for a new QR code'
failed_now && show
check "... no QR code is left on the screen or in the QR file" \
    sh -c "! grep -q 'scan this QR code' '$tmp/pane' && [ ! -s '$tmp/qr' ]"
check "... and wachat registers no more (one registration over 12 s)" \
    stays registrations 1 12
failed_now && { show; grep -c 'registration from' "$tmp/sim.log" | sed 's/^/# registrations in the sim log: /'; }
tm send-keys -t wachat r
check "r registers once more" wait_for count_is registrations 2
new_qr() {
	grep -q 'https://wa\.me/settings/linked_devices#' "$tmp/qr" \
	    2>/dev/null && [ "$(cat "$tmp/qr")" != "$qr1" ]
}
check "... and shows a new QR code" wait_for new_qr
# link, for b and c (at once: the QR lasts 3 s)
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" $A >"$tmp/scan" 2>&1
check "... which a scan links, and wachat connects" \
    wait_pane "connected as .*\\+$A"
failed_now && show

# --- b. a failure with no retry
l0=$(attempts logins)
login_failure 499 1 >"$tmp/lf" 2>&1
ctl drop last >/dev/null 2>&1
check "the login after a drop is refused (499, a reason no one knows): the status line says why, with the number and the key" \
    wait_joined_re 'stopped \(Alt-r tries again\): the server refused the login for a reason wachat does not know \(failure 499\)'
failed_now && show
check "... and wachat tries no more (one login over 6 s)" \
    stays logins $((l0 + 1)) 6
failed_now && show
tm send-keys -t wachat M-r
check "Alt-r logs in once more, and connects" wait_pane "connected as .*\\+$A"
check "... with one login" count_is logins $((l0 + 2))
failed_now && show

# --- c. failure 500 is retried
l1=$(attempts logins)
f1=$(attempts failures_500)
login_failure 500 2 >"$tmp/lf" 2>&1
ctl drop last >/dev/null 2>&1
check "failure 500 twice: retried with the backoff, then connected" \
    wait_for count_is logins $((l1 + 3))
check "... the sim sent 500 twice" count_is failures_500 $((f1 + 2))
check "... and wachat is connected again" wait_pane "connected as .*\\+$A"
failed_now && show

tm send-keys -t wachat C-q
check "Ctrl-q quits wachat (exit status 0)" \
    [ "$(exit_status)" = 0 ]
finish_sim_tmux
