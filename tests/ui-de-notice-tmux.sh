#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The notices wachat writes into a chat (a contact's security code
# changed) are typed, not English text: under LANG=de_DE.UTF-8 with the
# catalogue compiled from po/de.po, a contact who reinstalls WhatsApp
# (the sim's phone-reinstall) and writes again makes the open chat in a
# tmux pane show "Sicherheitsnummer geändert" and no English; after a
# restart the same line, read back from the database, is German too; and
# `wachat history` prints it in German; neither the screen's chat list
# nor `wachat chats` shows the notice's stored code; no sanitizer
# report.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001
BOB=15550000002

need msgfmt locale
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\{0,1\}8'; then
	not_ok "the locale de_DE.UTF-8 is there (sh tools/setup.sh installs Debian's locales and runs locale-gen)"
	finish_tap
	exit 1
fi
. "${top_srcdir:-.}/tests/tmux-lib.sh"
unset LANGUAGE LC_ALL LC_MESSAGES LC_CTYPE

LOC="$tmp/locale"
mkdir -p "$LOC/de/LC_MESSAGES"
check "po/de.po compiles" msgfmt -o "$LOC/de/LC_MESSAGES/wachat.mo" \
    "$s/po/de.po"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1
ctl contact $BOB 100000000000002 Bob $PN >/dev/null 2>&1

# pane: wachat in a new detached 100x40 tmux pane under LANG=de_DE.UTF-8
# against the sim, its exit status kept in $tmp/status.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 100 -y 40 \
	    "env -u LC_ALL -u LANGUAGE -u LC_MESSAGES -u LC_CTYPE \
	    LANG=de_DE.UTF-8 WACHAT_LOCALEDIR='$LOC' TERM=screen HOME='$HOME' \
	    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$tmp/data' \
	    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}

pane
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" >"$tmp/scan" 2>&1
check "wachat links and says: verbunden als +$PN" \
    wait_pane "verbunden als .*\\+$PN"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
# The prekeys must be on the server before Bob writes, or his phone
# finds no device of ours to encrypt for.
wait_grep "$LOG" 'prekeys: event 6, [0-9]+ keys'
ctl phone-send $BOB "$PN@s.whatsapp.net" "vorher" >"$tmp/s1" 2>&1
check "Bob writes; his chat is listed" wait_pane 'Bob'
tm send-keys -t wachat Tab
check "Tab opens it: his message shows" wait_pane 'vorher'
[ $? -eq 0 ] || diag "$tmp/pane"
ctl phone-reinstall $BOB >"$tmp/re" 2>&1
ctl phone-send $BOB "$PN@s.whatsapp.net" "nachher" >"$tmp/s2" 2>&1
check "Bob reinstalls and writes: the chat says Sicherheitsnummer geändert" \
    wait_panes 'Sicherheitsnummer geändert' 'nachher'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/re"; }
check "... and no English notice" \
    eval '! grep -q "security code changed" "$tmp/pane"'
check "... nor the stored code of it anywhere, the chat list's preview too" \
    eval '! grep -q "wachat-notice" "$tmp/pane"'
[ $? -eq 0 ] || diag "$tmp/pane"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

pane
check "started again, it connects" wait_pane "verbunden als .*\\+$PN"
tm send-keys -t wachat Tab
check "the notice read back from the database is German too" \
    wait_panes 'Sicherheitsnummer geändert' 'nachher'
[ $? -eq 0 ] || diag "$tmp/pane"
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops it again: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$LOC" \
    "$W" history "+$BOB" --data-dir "$tmp/data" >"$tmp/hist" 2>&1
check "wachat history prints it in German" \
    grep -q 'Sicherheitsnummer geändert' "$tmp/hist"
[ $? -eq 0 ] || diag "$tmp/hist"
env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$LOC" \
    "$W" chats --data-dir "$tmp/data" >"$tmp/chats" 2>&1
check "wachat chats shows Bob's chat without the stored code of a notice" \
    eval 'grep -q "Bob" "$tmp/chats" && ! grep -q "wachat-notice" "$tmp/chats"'
[ $? -eq 0 ] || diag "$tmp/chats"
finish_sim_tmux
