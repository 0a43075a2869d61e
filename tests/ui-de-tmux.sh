#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The German UI: po/de.po translates every message of po/wachat.pot (no
# fuzzy, no untranslated one); compiled into a catalogue that
# WACHAT_LOCALEDIR points to, wachat under LANG=de_DE.UTF-8 (LC_ALL and
# LANGUAGE unset) prints its --help in German, and in a detached 100x40
# tmux pane against wachat-sim shows the pairing screen in German (the QR
# hint, the status line, the too-small-window message), then, after the
# phone scans the QR, "verbunden als +NUMBER", the German help line, the
# key page and the new-chat prompt, not cut in 80 columns; Ctrl-q stops
# it cleanly.  Run
# again with its output not a terminal it logs in and prints its event
# lines in German.  The same catalogue under C.UTF-8 gives English, and
# under de_DE.UTF-8 without the catalogue English too: the German comes
# from the locale and po/de.po, nothing else.  The machine needs the
# de_DE.UTF-8 locale (Debian's locales package; sh tools/setup.sh
# generates it): without it the test bails out.  TAP.
# Every wait is bounded; tmux, wachat and the sim are killed at the end.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
PN=15550000001

need msgfmt msgcmp locale
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\{0,1\}8'; then
	not_ok "the locale de_DE.UTF-8 is there (sh tools/setup.sh installs Debian's locales and runs locale-gen)"
	finish_tap
	exit 1
fi
. "${top_srcdir:-.}/tests/tmux-lib.sh"
unset LANGUAGE LC_ALL LC_MESSAGES LC_CTYPE

# The catalogue, compiled from the source as `make` does, where
# WACHAT_LOCALEDIR will point.
LOC="$tmp/locale"
mkdir -p "$LOC/de/LC_MESSAGES"
msgfmt -c --statistics -o "$LOC/de/LC_MESSAGES/wachat.mo" "$s/po/de.po" \
    2>"$tmp/msgfmt"
check "po/de.po compiles with msgfmt -c" [ $? -eq 0 ] || diag "$tmp/msgfmt"
check "... every message translated: none fuzzy or untranslated" \
    eval '! grep -q "fuzzy\|untranslated" "$tmp/msgfmt"'
[ $? -eq 0 ] || diag "$tmp/msgfmt"
msgcmp "$s/po/de.po" "$s/po/wachat.pot" >"$tmp/msgcmp" 2>&1
check "... and it has every msgid of po/wachat.pot (msgcmp)" [ $? -eq 0 ]
[ $? -eq 0 ] || diag "$tmp/msgcmp"
check "po/LINGUAS names de, so make builds and installs de.gmo" \
    grep -qw de "$s/po/LINGUAS"

# de LOCALEDIR COMMAND...: COMMAND under LANG=de_DE.UTF-8 with the
# catalogues in LOCALEDIR.
de() {
	l=$1
	shift
	env LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$l" "$@"
}

de "$LOC" "$W" --help >"$tmp/help" 2>&1
check "wachat --help under LANG=de_DE.UTF-8 is in German" \
    grep -q '^Aufruf: .*wachat \[OPTION\]\.\.\.$' "$tmp/help"
[ $? -eq 0 ] || diag "$tmp/help"
check "... all of it: the keys and the settings" eval \
    'grep -q "^  Ctrl-q              beenden (quit)$" "$tmp/help" &&
    grep -q "^Einstellungen (die Befehlszeile hat Vorrang vor der Datei):$" \
    "$tmp/help" && grep -q "^  --log-level STUFE   error, warn, info (Vorgabe) oder debug$" \
    "$tmp/help"'
check "... no English line left in it" \
    eval '! grep -q "show this help\|Settings (command line\|(default" "$tmp/help"'
wide=$(LC_ALL=de_DE.UTF-8 wc -L <"$tmp/help")
check "... no line wider than 79 columns (widest: $wide)" [ "$wide" -le 79 ]
env LANG=C.UTF-8 WACHAT_LOCALEDIR="$LOC" "$W" --help >"$tmp/help-c" 2>&1
check "under LANG=C.UTF-8 the same catalogue leaves --help in English" \
    grep -q '^Usage: ' "$tmp/help-c"
mkdir "$tmp/empty"
de "$tmp/empty" "$W" --help >"$tmp/help-none" 2>&1
check "without the catalogue in WACHAT_LOCALEDIR --help is English" \
    grep -q '^Usage: ' "$tmp/help-none"
de "$LOC" "$W" --send-typing maybe >"$tmp/bad" 2>&1
check "a wrong setting is reported in German" grep -q 'weder yes noch no' \
    "$tmp/bad"
[ $? -eq 0 ] || diag "$tmp/bad"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $PN 100000000000001 alice >/dev/null 2>&1

# pane COLS ROWS DATA-DIR: wachat in a new detached tmux pane under
# LANG=de_DE.UTF-8, LC_ALL and LANGUAGE unset, against the sim; the
# pane's shell keeps wachat's exit status in $tmp/status.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x "$1" -y "$2" \
	    "env -u LC_ALL -u LANGUAGE -u LC_MESSAGES -u LC_CTYPE \
	    LANG=de_DE.UTF-8 WACHAT_LOCALEDIR='$LOC' TERM=screen HOME='$HOME' \
	    '$W' --url '$URL' --root-key '$ROOT_PUB' --data-dir '$3' \
	    --qr-file '$tmp/qr' 2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}

pane 100 40 "$tmp/data"
check "tmux starts a 100x40 pane" wait_pane .
wait_grep "$tmp/qr" 'https://wa\.me/settings/linked_devices#'
check "the pairing screen gives the QR hint in German" \
    wait_pane 'scannen Sie diesen QR-Code innerhalb von [0-9]+ s'
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
hint_re='scannen Sie diesen QR-Code innerhalb von [0-9]+ s mit Ihrem Telefon oder drücken Sie p, um mit Ihrer Telefonnummer zu verknüpfen'
check "... all of it, across its rows" wait_joined_re "$hint_re"
check "... the status line says it waits for the scan: warte auf das Scannen" \
    wait_pane '^ *warte auf das Scannen'
check "... and the QR is drawn (half blocks: the locale is UTF-8)" \
    wait_pane '▀|▄|█'
check "... no English text on the screen" \
    eval '! grep -q "scan this\|waiting for\|phone number" "$tmp/pane"'

tm resize-window -t wachat -x 60 -y 24
wait_size 60x24
check "a 60x24 window says in German that it is too small for the QR" \
    wait_joined 'Das Fenster ist zu klein für den QR-Code: nötig sind'
[ $? -eq 0 ] || diag "$tmp/pane"
check "... and offers the phone number instead" wait_joined \
    'Vergrößern Sie es oder drücken Sie p, um mit Ihrer Telefonnummer zu verknüpfen.'
tm send-keys -t wachat p
check "p opens the phone-number prompt in German" \
    wait_pane 'Telefonnummer mit Ländervorwahl: \+'
check "... with what Enter and Esc do" \
    wait_joined 'Enter fordert den Code an, Esc geht zurück.'
tm send-keys -t wachat Escape
tm resize-window -t wachat -x 100 -y 40
wait_size 100x40
check "Esc and a larger window bring the German QR hint back" \
    wait_pane 'scannen Sie diesen QR-Code'

ctl scan-qr "$(cat "$tmp/qr" 2>/dev/null)" >"$tmp/scan" 2>&1
check "the phone's scan of the QR is accepted" grep -q '"paired":true' \
    "$tmp/scan"
check "the status line says: verbunden als alice (+$PN)" \
    wait_pane "verbunden als alice \\(\\+$PN\\)"
[ $? -eq 0 ] || { diag "$tmp/pane"; diag "$tmp/w.err"; }
check "... the German help line at the bottom" \
    wait_pane 'Enter senden  Tab nächster Chat  Up auswählen  Ctrl-g Hilfe  Ctrl-q beenden'
[ $? -eq 0 ] || diag "$tmp/pane"
check "... the bar says no chat is open, in German" \
    wait_pane 'Kein Chat offen: Ctrl-n sucht oder beginnt einen'
tm send-keys -t wachat C-g
check "Ctrl-g shows the key page in German" \
    wait_pane 'Tasten \(jede Taste schließt diese Seite\)'
[ $? -eq 0 ] || diag "$tmp/pane"
# keys_page: a fresh capture shows the key page's lines.
keys_page() {
	capture
	grep -q "Ctrl-q  *beenden" "$tmp/pane" &&
	    grep -q "Tab  *nächster Chat" "$tmp/pane" &&
	    grep -A1 "^.*│ *Ctrl-a Ctrl-e *$" "$tmp/pane" |
	    grep -q "│  *Anfang, Ende der Zeile *$"
}
check "... each key with what it does" wait_for keys_page
[ $? -eq 0 ] || diag "$tmp/pane"
# 80 columns, as wide as the English needs: no German line is cut.
tm resize-window -t wachat -x 80 -y 40
wait_size 80x40
check "... in 80 columns each line whole" \
    wait_pane 'Alt-s Alt-\* +reagieren, Stern \(gewählte Nachricht\) *$'
[ $? -eq 0 ] || diag "$tmp/pane"
check "... the longest too" wait_pane \
    '1-6 0 +Schnellreaktion, entfernen \(Reagieren\) *$'
check "... and the help line" wait_pane \
    'Enter senden  Tab nächster Chat  Up auswählen  Ctrl-g Hilfe  Ctrl-q beenden *$'
tm send-keys -t wachat Escape
check "... any key closes it; the bar, whole in 80 columns" \
    wait_pane 'Kein Chat offen: Ctrl-n sucht oder beginnt einen *$'
tm resize-window -t wachat -x 100 -y 40
wait_size 100x40
tm send-keys -t wachat C-n
check "Ctrl-n opens the chat picker in German" \
    wait_pane 'Teil eines Namens oder einer Nummer eingeben'
tm send-keys -t wachat Escape
# The hint "Kein Chat offen" stays in the message pane under the prompt:
# only the prompt gone shows that the Esc was read, and a key sent before
# that would reach wachat right behind the Esc and read as Alt-key.
prompt_gone() {
	capture
	! grep -q 'Chat öffnen' "$tmp/pane" &&
	    grep -q 'Kein Chat offen' "$tmp/pane"
}
check "... Esc goes back" wait_for prompt_gone

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat cleanly: exit 0" [ "$st" = 0 ]
failed_now && { diag "$tmp/pane"; diag "$tmp/w.err"; }
tm kill-server >/dev/null 2>&1

# Not on a terminal: one line per event, in German.
env -u LC_ALL -u LANGUAGE LANG=de_DE.UTF-8 WACHAT_LOCALEDIR="$LOC" \
    "$W" --url "$URL" --root-key "$ROOT_PUB" --data-dir "$tmp/data" \
    </dev/null >"$tmp/lines" 2>"$tmp/lines.err" &
wpid=$!
bg_pids="$bg_pids $wpid"
check "with its output not a terminal, it prints: verbunden als +$PN" \
    wait_grep "$tmp/lines" "^verbunden als \\+$PN\$"
[ $? -eq 0 ] || { diag "$tmp/lines"; diag "$tmp/lines.err"; }
kill -TERM "$wpid" 2>/dev/null
wait_pid "$wpid"
check "... SIGTERM stops it cleanly (status $status)" [ "$status" -eq 0 ]
check "... every line it printed is German" \
    eval '! grep -q "connected as\|connecting\|stopped" "$tmp/lines"'
[ $? -eq 0 ] || diag "$tmp/lines"

sim_stop
check "wachat-sim exits cleanly (status $status)" [ "$status" -eq 0 ]
log="$HOME/.local/state/wachat/wachat.log"
if grep -q -E 'Sanitizer|runtime error:' "$tmp"/*.err "$log" 2>/dev/null
then
	not_ok "no sanitizer report from wachat-sim or wachat"
	for f in "$tmp"/*.err "$log"; do
		diag "$f"
	done
else
	ok "no sanitizer report from wachat-sim or wachat"
fi
finish_tap
