#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An unmodified Baileys client against wachat-sim's companion_reg_refresh,
# pairing by phone-number code, failure 405 and /sw.js
# (tests/sim-interop/baileys-pairing.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-pairing.mjs
