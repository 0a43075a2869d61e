#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The starred messages (issue 20 points 4 and 3; protocol-features.md
# 3.8): in a tmux pane, linked as alice against wachat-sim (TLS, for app
# state), bob sends a location, then writes "apple pie tonight", "banana
# split" and "apple tart"; Up Alt-* stars the banana, the pie and the
# location (the sim's app state holds the three stars, the chat marks
# them starred).  Alt-f with is:starred lists the three and not the
# others, the location in its words ("Location: Brandenburger Tor;
# Pariser Platz; LAT, LON"), never its record's key=value text; the title
# says is:starred; words after it narrow it (is:starred apple: the pie,
# not the tart); is:starred alone is no hint but a search.  In the shell,
# `wachat starred` lists the three newest first (the location in words),
# `wachat starred bob` the same by the chat's name, `--json` as hits,
# `wachat search is:starred apple` the pie alone, and `wachat starred`
# of a chat with none says so (exit 2).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
AJ=$A@s.whatsapp.net
BO=15550000004
CA=15550000005

need openssl python3
. "${top_srcdir:-.}/tests/tmux-lib.sh"
sim_start_tls

ctl account $A 100000000000001 "Demo User" >/dev/null 2>&1
ctl contact $BO 100000000000004 "bob" $A >/dev/null 2>&1
ctl contact $CA 100000000000005 "carol" $A >/dev/null 2>&1

start_pane --ca-file "$tmp/cert.pem"
link_and_connect
# stars: how many stars of ours the sim's app state holds, flag true.
stars() {
	ctl appstate $A >"$tmp/state" 2>&1 && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
c = [c for c in s["collections"] if c["name"] == "regular_high"]
r = [r for r in (c[0]["actions"] if c else [])
     if json.loads(r["index"])[0] == "star" and r["action"]["flag"]]
sys.exit(0 if len(r) == int(sys.argv[2]) else 1)' "$tmp/state" "$1"
}
keys_in() {
	ctl appstate $A >"$tmp/state" 2>&1 && python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["key_shares"] > 0 else 1)' "$tmp/state"
}
check "the phone shared its app-state key with wachat" wait_for keys_in
synced() {
	grep -q 'app state regular_high: ' "$LOG"
}
wait_for synced >/dev/null
ctl phone-send $CA $AJ "carol says hi" >/dev/null 2>&1
wait_pane 'carol says hi' >/dev/null
curl -sf -m 30 -X POST -H 'Content-Type: application/json' \
    -d "{\"from_pn\":\"$BO\",\"to\":\"$AJ\",\"kind\":\"location\",\"lat\":52.516275,\"lon\":13.377704,\"name\":\"Brandenburger Tor\",\"address\":\"Pariser Platz\"}" \
    "$ADMIN/admin/mock-phone/send-kind" >"$tmp/sent" 2>&1
check "bob sends a location" wait_pane 'Location: Brandenburger Tor'
failed_now && { diag "$tmp/sent"; show; }
ctl phone-send $BO $AJ "apple pie tonight" >/dev/null 2>&1
wait_pane 'apple pie tonight' >/dev/null
ctl phone-send $BO $AJ "banana split" >/dev/null 2>&1
wait_pane 'banana split' >/dev/null
ctl phone-send $BO $AJ "apple tart" >/dev/null 2>&1
check "bob's three messages come in" wait_pane 'apple tart'
failed_now && show

# right: the pane right of the chat list (the messages, or the search).
right() {
	capture
	sed 's/^[^│]*│//' "$tmp/pane" >"$tmp/right"
}
right_has() {
	right
	for rh in "$@"; do
		grep -Eq -- "$rh" "$tmp/right" || return 1
	done
}
right_lacks() {
	right
	! grep -Eq -- "$1" "$tmp/right"
}

tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane 'bob.*│'
tm send-keys -t wachat Up Up
input_read
tm send-keys -t wachat M-*
check "Up Up Alt-* stars banana split: the sim holds the star" \
    wait_for stars 1
failed_now && { diag "$tmp/state"; show; }
tm send-keys -t wachat Up
input_read
tm send-keys -t wachat M-*
check "Up Alt-* stars apple pie tonight too (two stars)" wait_for stars 2
tm send-keys -t wachat Up
input_read
tm send-keys -t wachat M-*
check "Up Alt-* stars the location too (three stars)" wait_for stars 3
check "... the chat marks the three starred" \
    wait_cmd "$WAIT" sh -c "tmux -u -S '$SOCK' capture-pane -p -t wachat |
    grep -c '(starred)' | grep -qx 3"
failed_now && show
tm send-keys -t wachat Escape
input_read

tm send-keys -t wachat M-f
check "Alt-f opens the search of all chats" wait_pane 'Search all chats'
tm send-keys -t wachat -l "is:starred"
input_read
check "is:starred lists the three starred messages" \
    wait_for right_has 'banana split' 'apple pie tonight' \
    'Location: Brandenburger Tor; Pariser Platz; 52.516275, 13.3'
failed_now && show
check "... the location in its words, not its record's key=value text" \
    eval 'right_lacks "lat=" && right_lacks "name="'
check "... not the others" eval 'right_lacks "apple tart" &&
    right_lacks "carol says hi"'
failed_now && show
check "... the title says is:starred" \
    pane_has 'Search all chats.*is:starred'
check "... no hint to type words" eval '! pane_has "Type words"'
tm send-keys -t wachat -l " apple"
input_read
check "is:starred apple: the starred pie, not the tart nor the banana" \
    wait_for right_has 'apple pie tonight'
check "... banana split gone from the hits" \
    wait_for right_lacks 'banana split'
failed_now && show
check "... apple tart not among them" right_lacks 'apple tart'
tm send-keys -t wachat Escape
input_read
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q stops wachat: exit 0" [ "$st" = 0 ]
tm kill-server >/dev/null 2>&1

sh_run() {
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$W" "$@" --data-dir "$tmp/data" \
	    >"$tmp/out" 2>"$tmp/err"
}
sh_run starred
check "wachat starred lists the three, newest first" \
    eval '[ "$(wc -l <"$tmp/out")" -eq 3 ] &&
    sed -n 1p "$tmp/out" | grep -q "bob.*: banana split$" &&
    sed -n 2p "$tmp/out" | grep -q "bob.*: apple pie tonight$" &&
    sed -n 3p "$tmp/out" | grep -q "bob.*: Location: Brandenburger Tor; Pariser Platz; 52.516275, 13.377704$"'
failed_now && { diag "$tmp/out"; diag "$tmp/err"; }
check "... the location in words, never lat= or name=" \
    eval '! grep -q "lat=\|name=" "$tmp/out"'
sh_run starred bob
check "wachat starred bob: the same, by the chat's name" \
    eval '[ "$(wc -l <"$tmp/out")" -eq 3 ] && grep -q "banana split" "$tmp/out"'
sh_run starred --json
check "wachat starred --json: three hits, the location's snippet in words" \
    eval '[ "$(grep -c "\"type\":\"hit\"" "$tmp/out")" -eq 3 ] &&
    grep -q "\"snippet\":\"Location: Brandenburger Tor; Pariser Platz" "$tmp/out"'
failed_now && diag "$tmp/out"
sh_run search is:starred apple
check "wachat search is:starred apple: the pie alone" \
    eval '[ "$(wc -l <"$tmp/out")" -eq 1 ] &&
    grep -q "apple pie tonight" "$tmp/out"'
failed_now && { diag "$tmp/out"; diag "$tmp/err"; }
sh_run starred carol
st=$?
check "wachat starred carol: none, said (exit 2)" \
    eval '[ "$st" -eq 2 ] && grep -q "none is starred" "$tmp/err"'
failed_now && { diag "$tmp/err"; echo "# status $st"; }
finish_sim_tmux
