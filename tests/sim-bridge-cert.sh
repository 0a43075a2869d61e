#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# whatsapp-rust-bridge's verifySignature checks wachat-sim's certificate
# chain (tests/sim-interop/bridge-cert.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
sim_node_run bridge-cert.mjs
