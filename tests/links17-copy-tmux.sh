#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The copy key (issue 17 point 7): wachat in a tmux pane (set-clipboard
# on, so tmux takes a program's OSC 52 into its buffer, as it would pass
# it to the outer terminal) against wachat-sim; bob's phone sends a text
# of two lines.  Alt-c with no message selected says to select one and
# copies nothing; Up then Alt-c puts the message's text, both lines, in
# tmux's buffer and the line over the input says what was copied.  Run
# again with --clipboard no, Alt-c says copying is off and the buffer is
# unchanged.  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
W="$b/wachat"
A=15550000001
B=15550000003
AJ=$A@s.whatsapp.net

. "${top_srcdir:-.}/tests/tmux-lib.sh"

if ! sim_start; then
	echo "Bail out! wachat-sim did not start"
	exit 1
fi
ctl account $A 100000000000001 alice >/dev/null 2>&1
ctl contact $B 100000000000003 bob $A >/dev/null 2>&1

# copy_pane [OPTION VALUE...]: start_pane, and tmux takes a program's
# OSC 52 into its buffer.
copy_pane() {
	start_pane "$@"
	tm set-option -g set-clipboard on >/dev/null 2>&1
}
copy_pane
tm set-buffer -b canary "canary" 2>/dev/null

link_and_connect

text=$(printf 'copy me: ümlaut\nsecond line')
ctl phone-send $B $AJ "$text" >/dev/null 2>&1
check "bob's message shows in the list" wait_pane 'copy me'
tm send-keys -t wachat Tab
check "Tab opens bob's chat" wait_pane '^.*│ *second line'
failed_now && show

# buffer_is TEXT: tmux's newest buffer holds TEXT.
buffer_is() {
	[ "$(tm show-buffer 2>/dev/null)" = "$1" ]
}

tm send-keys -t wachat M-c
check "Alt-c with no message selected says to select one" \
    wait_pane 'select a message first \(Up\)'
check "... and copies nothing (tmux's buffer is the canary)" \
    buffer_is canary
failed_now && show

tm send-keys -t wachat Up
input_read
tm send-keys -t wachat M-c
check "Up, Alt-c: the line over the input says what was copied" \
    wait_pane 'copied to the clipboard: copy me: ümlaut…'
check "... and tmux's buffer (OSC 52) holds the message, both lines" \
    wait_for buffer_is "$text"
failed_now && { show; tm show-buffer | sed 's/^/# buffer: /'; }
check "... the message is still shown as it was" \
    wait_panes '^.*│ *copy me: ümlaut' '^.*│ *second line'

tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]

# Again with the clipboard off (a new tmux server: the last one ended
# with its only pane).
copy_pane --clipboard no
tm set-buffer -b canary2 "canary2" 2>/dev/null
check "with --clipboard no wachat starts on its chats" \
    wait_pane "connected as .*\\+$A"
tm send-keys -t wachat Tab
check "... Tab opens bob's chat" wait_pane '^.*│ *second line'
tm send-keys -t wachat Up
input_read
tm send-keys -t wachat M-c
check "... Alt-c says copying is off" \
    wait_pane 'copying is off \(clipboard = no in wachat.conf\)'
sleep 0.5
check "... and tmux's buffer is unchanged" buffer_is canary2
failed_now && show
tm send-keys -t wachat C-q
st=$(exit_status)
check "Ctrl-q quits with status 0 (got ${st:-none})" [ "$st" = 0 ]

finish_sim_tmux
