#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The node codec checked byte for byte against Baileys and
# whatsapp-rust-bridge (codec-check.mjs; TAP).  Needs Node 20 or newer and
# the packages of package-lock.json (`npm ci` in tests/interop, which the
# README's test command runs).
dir="${top_srcdir:-.}/tests/interop"
node="${NODE:-node}"
major=$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)
if [ -z "$major" ] || [ "$major" -lt 20 ]; then
	echo "Bail out! Node 20 or newer is needed (found: ${major:-none})"
	exit 1
fi
if [ ! -d "$dir/node_modules/@whiskeysockets/baileys" ] ||
   [ ! -d "$dir/node_modules/whatsapp-rust-bridge" ]; then
	echo "Bail out! run 'npm ci' in $dir first"
	exit 1
fi
WA_BIN_JSON="${top_builddir:-.}/tests/wa-bin-json"
export WA_BIN_JSON
exec "$node" "$dir/codec-check.mjs"
