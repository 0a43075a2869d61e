#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# History sync end to end: wachat's engine (tests/wa-eng-driver) and the
# sim's phone with 50,000 messages in 500 chats over wss and an HTTPS
# media host, read back with wachat's shell commands; kill -9 mid-import,
# faults, on-demand (tests/sim-interop/wachat-history.mjs).  TAP.  Needs
# the openssl and sqlite3 commands (tools/setup.sh installs them).
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
for c in openssl sqlite3; do
	if ! command -v $c >/dev/null 2>&1; then
		echo "Bail out! the $c command is not installed"
		exit 1
	fi
done
sim_node_run wachat-history.mjs
