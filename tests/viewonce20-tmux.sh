#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A view-once photo opened once (issue 20), in a real terminal: wachat in
# a 160x40 tmux pane against wachat-sim (TLS, its media host), linked as
# alice.  Bob's phone sends a real photo inside a view-once wrapper (POST
# /admin/media/send with view_once).  Alt-w and Alt-y refuse it ("a
# view-once message cannot be saved"); Alt-l downloads it into a private
# temp file and runs open-command (a script that records the file's
# path, SHA-256 and modes): the bytes are the fixture's, the file 0600 in
# a 0700 folder under the data dir's runtime/tmp, not the media folder;
# the file is gone once the script has exited; the line says "View once
# photo · opened", a second Alt-l says it opens once, and so it stays
# after a restart.  Without open-command a second one is drawn once in
# half-blocks until a key, its temp file gone at once.  wachat media refuses it (exit 14); wachat history and
# export say "View once photo - opened" with no path and no key, and the
# database keeps no media row (no key) for it.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

need openssl cjpeg python3 sqlite3 sha256sum stat
. "${top_srcdir:-.}/tests/tmux-lib.sh"
sim_start_tls
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

python3 -c 'import sys
w, h = 48, 32
px = bytes(v for y in range(h) for x in range(w) for v in ((x * 255) // w, 99, (y * 255) // h))
open(sys.argv[1], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + px)' "$tmp/p.ppm"
cjpeg -quality 80 "$tmp/p.ppm" >"$tmp/photo.jpg" 2>/dev/null
check "the fixture photo is made" test -s "$tmp/photo.jpg" || exit 1

# open-command: records its argument, the file's SHA-256, its mode and
# its folder's mode, then exits.
cat >"$tmp/open.sh" <<EOF
#!/bin/sh
{ printf '%s\n' "\$1"; sha256sum "\$1" | cut -d' ' -f1
stat -c %a "\$1"; stat -c %a "\$(dirname "\$1")"; } >"$tmp/opened.part"
mv "$tmp/opened.part" "$tmp/opened"
EOF
chmod 755 "$tmp/open.sh"

MD=$tmp/m
# pane [OPTION VALUE...]: wachat in the pane (no display: no opener but
# the one given).
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 160 -y 40 \
	    "env -u DISPLAY -u WAYLAND_DISPLAY LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    TERM=screen-256color \
	    HOME='$HOME' '$W' --url '$URL' --root-key '$ROOT_PUB' \
	    --ca-file '$tmp/cert.pem' --data-dir '$tmp/data' \
	    --qr-file '$tmp/qr' --download-dir '$MD' \
	    --thumbnail-rows 0 $* \
	    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}
sha() {
	sha256sum "$1" 2>/dev/null | cut -d' ' -f1
}
# line N: line N of what open-command recorded.
line() {
	sed -n "${1}p" "$tmp/opened" 2>/dev/null
}
select_newest() {
	tm send-keys -t wachat Escape
	sleep 0.3
	tm send-keys -t wachat Up
	sleep 0.3
}
# drawn: the pane shows cells in 256-colour backgrounds (the photo's; no
# other thumbnail is drawn: thumbnail-rows 0).
drawn() {
	tm capture-pane -e -p -t wachat >"$tmp/pane-e" 2>/dev/null
	grep -Eq "$(printf '\033')\\[([0-9;]*;)?48;5;[0-9]+" "$tmp/pane-e"
}
not_drawn() {
	! drawn
}
opened_twice() {
	capture
	[ "$(grep -c 'View once photo · opened$' "$tmp/pane")" = 2 ]
}
quit() {
	tm send-keys -t wachat C-q
	st=$(exit_status)
	check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
	tm kill-server 2>/dev/null
}

pane --open-command "'$tmp/open.sh'"
link_and_connect
ctl media-send $B $AJ image "$tmp/photo.jpg" --caption "secret caption" \
    --view_once 1 >"$tmp/s" 2>&1
ID=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' \
    "$tmp/s" 2>/dev/null)
check "the view-once photo is sent (id $ID)" test -n "$ID"
check "the chat list previews it" wait_pane 'View once photo'
tm send-keys -t wachat Tab
check "Tab opens bob's chat: View once photo" \
    wait_pane '│ +View once photo$'
check "... its caption is not shown" pane_lacks 'secret caption'
select_newest
tm send-keys -t wachat M-w
check "Alt-w refuses it" wait_pane 'a view-once message cannot be saved'
check "... nothing in the media folder" \
    sh -c "[ -z \"\$(ls -A '$MD' 2>/dev/null)\" ]"
failed_now && show

tm send-keys -t wachat M-l
check "Alt-l opens it through open-command" wait_grep "$tmp/opened" . 300
P=$(line 1)
check "... the file's SHA-256 is the fixture's" \
    test "$(line 2)" = "$(sha "$tmp/photo.jpg")"
check "... the file is 0600 (got $(line 3))" test "$(line 3)" = 600
check "... in a 0700 folder (got $(line 4))" test "$(line 4)" = 700
check "... under the data dir's runtime/tmp ($P)" \
    sh -c "case '$P' in '$tmp/data/runtime/tmp/'*) exit 0;; esac; exit 1"
check "... not in the media folder" \
    sh -c "case '$P' in '$MD'/*) exit 1;; esac; exit 0"
check "... the temp file is gone once the opener exited" \
    wait_for sh -c "[ -n '$P' ] && [ ! -e '$P' ]"
check "the line says it was opened" \
    wait_pane '│ +View once photo · opened$'
failed_now && show
tm send-keys -t wachat M-y
check "Alt-y refuses it" wait_pane 'a view-once message cannot be saved'
rm -f "$tmp/opened"
tm send-keys -t wachat M-l
check "a second Alt-l refuses: it opens once" \
    wait_pane 'a view-once message opens once: already opened'
check "... and opens nothing" sh -c "sleep 1; [ ! -e '$tmp/opened' ]"
failed_now && show
quit

pane
check "restarted without open-command: still opened" \
    wait_pane 'View once photo · opened'
tm send-keys -t wachat Tab
check "... its line in bob's chat" \
    wait_pane '│ +View once photo · opened$'
select_newest
tm send-keys -t wachat M-l
check "... Alt-l still refuses" \
    wait_pane 'a view-once message opens once: already opened'
failed_now && show
# without open-command a photo is drawn once in half-blocks
ctl media-send $B $AJ image "$tmp/photo.jpg" --view_once 1 >"$tmp/s2" 2>&1
check "a second view-once photo arrives" wait_pane '│ +View once photo$'
select_newest
tm send-keys -t wachat M-l
check "Alt-l without open-command shows it until a key" \
    wait_pane 'a view-once photo: any key closes it'
check "... drawn in colours in the messages' place" wait_for drawn
check "... the messages not shown meanwhile" pane_lacks '── Today ──'
check "... its temp file already gone" \
    sh -c "[ -z \"\$(ls -A '$tmp/data/runtime/tmp' 2>/dev/null)\" ]"
tm send-keys -t wachat x
check "a key closes it: the messages are back" wait_pane '── Today ──'
check "... the photo's colours gone" not_drawn
check "... both photos say opened" wait_for opened_twice
failed_now && show
quit
check "the runtime/tmp folder holds no file" \
    sh -c "[ -z \"\$(ls -A '$tmp/data/runtime/tmp' 2>/dev/null)\" ]"

"$W" media "+$B" "$ID" --data-dir "$tmp/data" --out "$tmp/x.jpg" \
    >"$tmp/cli" 2>&1
st=$?
check "wachat media refuses it: exit 14 (got $st)" [ "$st" = 14 ]
check "... saying why" grep -q 'a view-once message cannot be saved' \
    "$tmp/cli"
check "... and writes nothing" test ! -e "$tmp/x.jpg"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" history "+$B" --data-dir "$tmp/data" \
    >"$tmp/hist" 2>&1
check "history: View once photo - opened" \
    grep -q 'bob.*: View once photo - opened$' "$tmp/hist"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" export "+$B" --format jsonl \
    --data-dir "$tmp/data" >"$tmp/export" 2>&1
check "export: its words and type, no path, no key" grep -q \
    '"kind":"rich","text":"View once photo - opened","rich":{"type":"viewonce","fields":\[\["media","image"\],\["opened","yes"\]\]}' \
    "$tmp/export"
check "... no path, no media, no hash anywhere in it" \
    sh -c "! grep -Eq 'runtime|\"media\":\\{|[0-9a-f]{64}|secret caption' '$tmp/export' '$tmp/hist'"
check "the database keeps no media row (no key) for it" test "$(sqlite3 \
    "$tmp/data/wachat.db" "SELECT count(*) FROM media JOIN message m ON \
    m.rowid = media.msg WHERE m.id = '$ID'" 2>&1)" = 0
failed_now && diag "$tmp/export" && diag "$tmp/hist"
finish_sim_tmux
