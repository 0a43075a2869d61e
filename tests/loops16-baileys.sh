#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An unmodified Baileys client against wachat-sim with nobody scanning:
# it ends with its QR timeout and does not register again on its own
# (tests/sim-interop/baileys-noscan.mjs; issue 16, point 5).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-noscan.mjs
