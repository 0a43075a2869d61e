# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the tests/sim-*.sh wrappers of the JS checks: find Node 20 or
# newer and the packages of tests/interop (npm ci there), then run
# tests/sim-interop/$1 (TAP on stdout).
sim_node_run() {
	dir="${top_srcdir:-.}/tests/sim-interop"
	nm="${top_srcdir:-.}/tests/interop/node_modules"
	node="${NODE:-node}"
	major=$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)
	if [ -z "$major" ] || [ "$major" -lt 20 ]; then
		echo "Bail out! Node 20 or newer is needed (found: ${major:-none})"
		exit 1
	fi
	if [ ! -d "$nm/@whiskeysockets/baileys" ] ||
	   [ ! -d "$nm/whatsapp-rust-bridge" ]; then
		echo "Bail out! run 'npm ci' in ${top_srcdir:-.}/tests/interop first"
		exit 1
	fi
	if [ ! -x "${top_builddir:-.}/tests/sim/wachat-sim" ]; then
		echo "Bail out! tests/sim/wachat-sim is not built"
		exit 1
	fi
	exec "$node" "$dir/$1"
}
