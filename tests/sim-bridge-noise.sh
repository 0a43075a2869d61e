#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# whatsapp-rust-bridge's NoiseSession completes a handshake with wachat-sim
# (tests/sim-interop/bridge-noise.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run bridge-noise.mjs
