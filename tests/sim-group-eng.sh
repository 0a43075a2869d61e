#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat's engine (tests/wa-eng-driver --messaging) and two unmodified
# Baileys clients in groups through wachat-sim: created by either side,
# messages from each reaching the other two, the SKDM only on the first
# send, a member removed and added back, a restart keeping the sender
# keys (tests/sim-interop/wachat-group.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run wachat-group.mjs
