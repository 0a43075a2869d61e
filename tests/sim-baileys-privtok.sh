#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Privacy tokens with an unmodified Baileys on the strict wachat-sim: a
# send after the contact's privacy_token notification succeeds, one to a
# contact that gave no token gets ack error 463
# (tests/sim-interop/baileys-privtok.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run baileys-privtok.mjs
