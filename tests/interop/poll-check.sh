#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The poll vote crypto checked against Baileys
# (poll-check.mjs; TAP).  Needs Node 20 or newer and the packages of
# package-lock.json (`npm ci` in tests/interop, which the README's test
# command runs).
dir="${top_srcdir:-.}/tests/interop"
node="${NODE:-node}"
major=$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)
if [ -z "$major" ] || [ "$major" -lt 20 ]; then
	echo "Bail out! Node 20 or newer is needed (found: ${major:-none})"
	exit 1
fi
if [ ! -d "$dir/node_modules/@whiskeysockets/baileys" ]; then
	echo "Bail out! run 'npm ci' in $dir first"
	exit 1
fi
WA_POLL_TOOL="${top_builddir:-.}/tests/interop/wa-poll-tool"
export WA_POLL_TOOL
exec "$node" "$dir/poll-check.mjs"
