#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Media fixes found by a fresh user (issue 19), in a real terminal:
# wachat in a 160x40 tmux pane against wachat-sim (TLS, its media host),
# linked as alice, download-dir given as ~/dl (HOME's dl, not ./~/dl).
# Five documents of one name, Five.pdf, are downloaded at once from a
# slow media host (3 s an answer): all five end, as Five.pdf, Five-1.pdf
# .. Five-4.pdf, each with the sim's bytes.  A downloaded file deleted
# from the disk: Alt-y says it is gone, Alt-w downloads it again, and
# Alt-l does too before it opens it.  Ctrl-o and Alt-v refuse a file
# that cannot be read (permission denied: PATH), a directory, an empty
# file and one over max-media-size (the limit said) at the path prompt;
# wachat send --file refuses the first two.  Tab in the path prompt
# lists the first six of 15 matches sorted, then "+9 more".  With an open-command that
# is not there, Alt-l says open-command failed.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$(cd "$b" && pwd)/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

need openssl python3 sha256sum
# As root the pane's wachat (and wachat send) run without the override
# of file permissions (setpriv), so that chmod 000 refuses root too.
PRIV=
if [ "$(id -u)" = 0 ]; then
	need setpriv
	PRIV="setpriv --bounding-set=-dac_override,-dac_read_search"
fi
. "${top_srcdir:-.}/tests/tmux-lib.sh"
sim_start_tls
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

cat >"$tmp/open.sh" <<EOS
#!/bin/sh
printf '%s\n' "\$1" >"$tmp/opened.part"
mv "$tmp/opened.part" "$tmp/opened"
EOS
chmod 755 "$tmp/open.sh"

MD=$HOME/dl
mkdir -p "$tmp/cwd"
# pane OPEN-COMMAND: wachat in the pane, started in $tmp/cwd.
pane() {
	rm -f "$tmp/status"
	tm new-session -d -s wachat -x 160 -y 40 \
	    "cd '$tmp/cwd' && $PRIV env LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    TERM=screen-256color HOME='$HOME' '$W' --url '$URL' \
	    --root-key '$ROOT_PUB' --ca-file '$tmp/cert.pem' \
	    --data-dir '$tmp/data' --qr-file '$tmp/qr' --download-dir '~/dl' \
	    --open-command '$1' --thumbnail-rows 0 --max-media-size 100K \
	    2>>'$tmp/w.err'; echo \$? >'$tmp/status'"
}
pane "$tmp/open.sh"
link_and_connect

# doc_sha ID: the sim's fileSHA256 of the document it sent as ID.
doc_sha() {
	ctl media >"$tmp/media" 2>&1
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print([m for m in d["messages"] if m["id"] == sys.argv[2] and m["dir"] == "sent"][0]["file_sha256"])' \
	    "$tmp/media" "$1" 2>/dev/null
}
sha() {
	sha256sum "$1" 2>/dev/null | cut -d' ' -f1
}
# five_there: Five.pdf and Five-1.pdf .. Five-4.pdf are in the folder.
five_there() {
	for f in Five.pdf Five-1.pdf Five-2.pdf Five-3.pdf Five-4.pdf; do
		[ -s "$MD/$f" ] || return 1
	done
}

# 1. five of one name at once from a slow media host
for i in 1 2 3 4 5; do
	ctl media-send $B $AJ document --file_name Five.pdf \
	    --caption "copy $i" >"$tmp/s$i" 2>&1
done
ID1=$(sed -n 's/.*"id": *"\([^"]*\)".*/\1/p' "$tmp/s1" | head -n 1)
check "bob's phone sends five documents named Five.pdf (the first $ID1)" \
    test -n "$ID1"
check "the chat list previews the last" wait_pane '📄 Document'
tm send-keys -t wachat Tab
check "Tab opens bob's chat: the fifth document's line" \
    wait_pane '│ +copy 5$'
ctl history-media-delay 3000 >/dev/null 2>&1
tm send-keys -t wachat Escape
sleep 0.3
for i in 1 2 3 4 5; do
	tm send-keys -t wachat Up
	sleep 0.2
	tm send-keys -t wachat M-w
done
check "Alt-w on each: all five are downloaded, Five.pdf to Five-4.pdf" \
    wait_cmd 600 five_there
check "... in \$HOME/dl, not in a folder named ~ where wachat started" \
    test ! -e "$tmp/cwd/~"
# The sim's five documents' fileSHA256s, one a line.
for i in 1 2 3 4 5; do
	doc_sha "$(sed -n 's/.*"id": *"\([^"]*\)".*/\1/p' "$tmp/s$i" | head -n 1)"
done | sort >"$tmp/want"
for f in Five.pdf Five-1.pdf Five-2.pdf Five-3.pdf Five-4.pdf; do
	sha "$MD/$f"
done | sort >"$tmp/got"
check "... the five files are the sim's five documents, each once" \
    sh -c "[ \$(sort -u '$tmp/want' | grep -c .) = 5 ] && cmp -s '$tmp/want' '$tmp/got'"
check "... every line shows its path: the last, Five-4.pdf" \
    wait_pane "│ +$MD/Five-4\\.pdf\$"
check "... and none failed" pane_lacks 'failed|exists'
ctl history-media-delay 0 >/dev/null 2>&1
failed_now && show

# 2. a downloaded file deleted from the disk (the newest, selected)
tm send-keys -t wachat Escape
sleep 0.3
tm send-keys -t wachat Up
sleep 0.3
capture
SEL=$(sed -n "s|.*│ *\\($MD/Five[-0-9]*\\.pdf\\)\$|\\1|p" "$tmp/pane" | tail -n 1)
check "the selected message's file is known ($SEL)" test -n "$SEL"
SHA=$(sha "$SEL")
rm -f "$SEL"
tm send-keys -t wachat M-y
check "Alt-y on it: the file is gone, Alt-w downloads it again" \
    wait_pane 'the file is gone from the disk: Alt-w downloads it again'
tm send-keys -t wachat M-w
check "Alt-w downloads it again" wait_cmd 300 test -s "$SEL"
check "... with the sim's bytes" test -n "$SHA" -a "$(sha "$SEL")" = "$SHA"
check "... and says so" wait_pane "downloaded: $SEL"
failed_now && show
rm -f "$SEL"
tm send-keys -t wachat M-l
check "Alt-l on it gone again: downloaded, then opened" \
    wait_grep "$tmp/opened" "^$SEL\$" 300
check "... with the sim's bytes" test -n "$SHA" -a "$(sha "$SEL")" = "$SHA"
failed_now && show

# 3. files that cannot be sent are refused at the path prompt, the
# reason said (the pane's wachat runs without root's override of file
# permissions, so that chmod 000 means what it says)
echo x >"$tmp/locked.jpg"
chmod 000 "$tmp/locked.jpg"
mkdir -p "$tmp/adir"
: >"$tmp/empty.pdf"
head -c 300000 /dev/zero >"$tmp/big.pdf"
# prompt_says KEY PATH REGEX: KEY opens its path prompt, PATH typed and
# Enter: the prompt says REGEX; Ctrl-u empties it, Escape closes it.
prompt_says() {
	tm send-keys -t wachat "$1"
	sleep 0.3
	tm send-keys -t wachat -l "$2"
	tm send-keys -t wachat Enter
	wait_pane "$3"
	ps_rc=$?
	tm send-keys -t wachat C-u Escape
	sleep 0.5
	return $ps_rc
}
check "Ctrl-o, a file that cannot be read: permission denied: PATH" \
    prompt_says C-o "$tmp/locked.jpg" "permission denied: $tmp/locked\\.jpg"
check "Alt-v, the same file: permission denied: PATH" \
    prompt_says M-v "$tmp/locked.jpg" "permission denied: $tmp/locked\\.jpg"
check "Ctrl-o, a directory: not a file" \
    prompt_says C-o "$tmp/adir" "not a file"
check "Ctrl-o, an empty file: the file is empty" \
    prompt_says C-o "$tmp/empty.pdf" "the file is empty"
check "Ctrl-o, a file over max-media-size: refused there, the limit said" \
    prompt_says C-o "$tmp/big.pdf" \
    'too big: 300 KB, over max-media-size \(102 KB\)'
check "... and no caption was asked for any" pane_lacks '[Cc]aption'
mkdir -p "$tmp/many"
for i in 15 03 11 07 01 13 05 09 02 14 06 10 04 12 08; do
	: >"$tmp/many/f$i.txt"
done
tm send-keys -t wachat C-o
sleep 0.3
tm send-keys -t wachat -l "$tmp/many/f"
tm send-keys -t wachat Tab
check "Tab on 15 matches: the first six in order, then +9 more" \
    wait_pane 'f01\.txt, f02\.txt, f03\.txt, f04\.txt, f05\.txt, f06\.txt, \+9 more'
tm send-keys -t wachat C-u Escape
sleep 0.5
$PRIV "$W" send "+$B" --file "$tmp/locked.jpg" --data-dir "$tmp/data" \
    >"$tmp/send1" 2>&1
st=$?
check "wachat send --file of the unreadable file: exit 2 (got $st)" \
    [ "$st" = 2 ]
check "... saying permission denied" grep -q 'permission denied' "$tmp/send1"
"$W" send "+$B" --file "$tmp/empty.pdf" --data-dir "$tmp/data" \
    >"$tmp/send2" 2>&1
st=$?
check "wachat send --file of the empty file: refused, the file is empty (got $st)" \
    sh -c "[ $st != 0 ] && grep -q 'the file is empty' '$tmp/send2'"
failed_now && { show; diag "$tmp/send1"; }

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null

# 4. an open-command that is not there: the screen says it failed
pane "$tmp/no-such-opener"
check "restarted with a missing open-command, it connects" \
    wait_pane 'connected as'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '│ +copy 5$'
tm send-keys -t wachat Escape
sleep 0.3
tm send-keys -t wachat Up
sleep 0.3
tm send-keys -t wachat M-l
check "Alt-l: open-command failed, and why" \
    wait_pane 'open-command failed: .*([Nn]o such file|not found)'
check "... not that it is opening" pane_lacks 'opening /'
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]
tm kill-server 2>/dev/null
finish_sim_tmux
