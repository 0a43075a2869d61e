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

# sim_node_tap SCRIPT: run tests/sim-interop/SCRIPT (sim_node_run) and
# number its TAP lines on from this test's (tests/sim-lib.sh ok and
# not_ok); a Bail out! ends the test; then checks that it exited 0.
sim_node_tap() {
	(sim_node_run "$1") >"$tmp/node.tap" 2>"$tmp/node.err"
	snt_rc=$?
	while IFS= read -r snt_line; do
		case $snt_line in
		"ok "*)
			ok "${snt_line#ok [0-9]* - }" ;;
		"not ok "*)
			not_ok "${snt_line#not ok [0-9]* - }" ;;
		"Bail out!"*)
			echo "$snt_line"
			exit 1 ;;
		1..*)
			;;
		*)
			echo "$snt_line" ;;
		esac
	done <"$tmp/node.tap"
	check "the Baileys scenario ($1) exits 0" test "$snt_rc" -eq 0
	[ "$snt_rc" -eq 0 ] || diag "$tmp/node.err"
}
