#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An unmodified Baileys client, paired to the strict sim, gets an offline
# backlog in batches: its single <ib><offline_batch count="100"/> per
# login (socket.ts) takes the primer and 100; the rest is held back and
# comes at its next login (tests/sim-interop/baileys-offline.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-offline.mjs
