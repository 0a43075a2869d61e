#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The streaming media contexts checked against Baileys
# (media-stream-check.mjs; TAP).  Needs Node 20 or newer and the packages
# of package-lock.json (`npm ci` in tests/interop).
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
WA_MEDIA_STREAM_TOOL="${top_builddir:-.}/tests/interop/wa-media-stream-tool"
export WA_MEDIA_STREAM_TOOL
exec "$node" "$dir/media-stream-check.mjs"
