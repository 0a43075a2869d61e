#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An unmodified Baileys client logs in to wachat-sim after pairing,
# uploads 812 prekeys and reaches `open` with every query answered; the
# sim hands prekeys out until few are left and Baileys tops up
# (tests/sim-interop/baileys-connect.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-connect.mjs
