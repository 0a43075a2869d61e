#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Signal sessions across three implementations (signal-check.mjs; TAP):
# wachat (libsignal-protocol-c, through tests/interop/wa-signal-tool),
# whatsapp-rust-bridge (whatsapp-rust's Signal code in WASM) and Baileys'
# libsignal (JS).  Needs Node 20 or newer and the packages of
# package-lock.json (`npm ci` in tests/interop).
dir="${top_srcdir:-.}/tests/interop"
node="${NODE:-node}"
major=$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)
if [ -z "$major" ] || [ "$major" -lt 20 ]; then
	echo "Bail out! Node 20 or newer is needed (found: ${major:-none})"
	exit 1
fi
if [ ! -d "$dir/node_modules/whatsapp-rust-bridge" ] ||
    [ ! -d "$dir/node_modules/libsignal" ]; then
	echo "Bail out! run 'npm ci' in $dir first"
	exit 1
fi
WA_SIGNAL_TOOL="${top_builddir:-.}/tests/interop/wa-signal-tool"
export WA_SIGNAL_TOOL
exec "$node" "$dir/signal-check.mjs"
