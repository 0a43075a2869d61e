#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A message with Baileys through wachat-sim shows on both sides with its
# ticks: wachat's UI in tmux and unmodified Baileys, texts both ways,
# read receipts both ways, the delivered and read ticks in wachat's pane;
# disappearing messages; polls both ways (Baileys' poll voted on in
# wachat and the vote decrypted by Baileys' decryptPollVote, wachat's poll
# voted on by Baileys and tallied in wachat)
# (tests/sim-interop/wachat-ui-baileys.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run wachat-ui-baileys.mjs
