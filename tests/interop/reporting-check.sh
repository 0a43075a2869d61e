#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The reporting token checked against Baileys' getMessageReportingToken
# (reporting-check.mjs; TAP).  Needs Node 20 or newer and the packages of
# package-lock.json (`npm ci` in tests/interop).
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
WA_MSG_TOOL="${top_builddir:-.}/tests/interop/wa-msg-tool"
WA_REPORTING_TOOL="${top_builddir:-.}/tests/interop/wa-reporting-tool"
export WA_MSG_TOOL WA_REPORTING_TOOL
exec "$node" "$dir/reporting-check.mjs"
