# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the send side: the user's mute, pin, archive, mark unread and
# star made in wachat go to the server as app-state patches of ours
# (asmut18-send-tmux, through wachat-sim), delete and clear asked first,
# a 409 rebuilt, an offline change kept across a restart.
# asmut18-baileys: both ways with Baileys as the account's second
# companion (tests/sim-interop/wachat-appstate-baileys.mjs).
# asmut18-nokey-tmux: no app-state key yet: the change waits (said),
# and goes once the phone's key share comes.
# asfix18-tmux: reading a chat marked unread clears the mark on every
# device; a star from the phone shows in the open chat.
TESTS += tests/asmut18-send-tmux.sh tests/asmut18-baileys.sh \
	tests/asmut18-nokey-tmux.sh tests/asfix18-tmux.sh
EXTRA_DIST += tests/asmut18-send-tmux.sh tests/asmut18-state.py \
	tests/asfix18-tmux.sh \
	tests/asmut18-nokey-tmux.sh \
	tests/asmut18-baileys.sh tests/sim-interop/wachat-appstate-baileys.mjs
