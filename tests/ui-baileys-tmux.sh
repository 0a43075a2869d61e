#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A message with Baileys through wachat-sim shows on both sides with its
# ticks: wachat's UI in tmux and unmodified Baileys, texts both ways,
# read receipts both ways, the delivered and read ticks in wachat's pane
# (tests/sim-interop/wachat-ui-baileys.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run wachat-ui-baileys.mjs
