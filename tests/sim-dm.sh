#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# wachat's engine (tests/wa-eng-driver --messaging) and an unmodified
# Baileys client exchange 1:1 messages through wachat-sim: texts, a reply,
# a reaction, receipts and typing both ways, messages to the side that is
# offline, the outbox (tests/sim-interop/wachat-dm.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run wachat-dm.mjs
