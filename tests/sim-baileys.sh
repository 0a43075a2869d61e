#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An unmodified Baileys client against wachat-sim: handshake, pair-device
# and its QR, then pairing with the sim as the phone, the 515 restart and
# a login (tests/sim-interop/baileys-pair.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-pair.mjs
