#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/sim-group-eng.sh with groups in PN addressing (protocol.md 10.3):
# the same checks, participants named by phone number.  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
GROUP_MODE=pn
export GROUP_MODE
sim_node_run wachat-group.mjs
