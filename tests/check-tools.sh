#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A test whose tool is missing fails, saying which; it never passes its
# checks unchecked.  Each script below runs with a PATH that has every
# command of this machine but one it needs (a folder of links): it must
# exit non-zero with a failing TAP line naming that command, and no "ok"
# line.  demo-tmux.sh without pgrep once passed "no process of the demo
# is left running" without looking.  TAP.
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-tools-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# without TOOL: a folder of links to every command on the PATH but TOOL
# (and, for procps, its companions), in $tmp/no-TOOL.
without() {
	d=$tmp/no-$1
	skip=" $* "
	mkdir -p "$d"
	IFS=:
	for p in $PATH; do
		for f in "$p"/*; do
			c=${f##*/}
			case $skip in *" $c "*) continue ;; esac
			[ -x "$f" ] && [ ! -e "$d/$c" ] && ln -s "$f" "$d/$c"
		done
	done
	unset IFS
}

# fails_without SCRIPT TOOL...: SCRIPT run without the TOOLs fails, with
# a "not ok" line naming the first TOOL and no "ok" line.
fails_without() {
	script=$1
	shift
	without "$@"
	PATH="$tmp/no-$1" top_srcdir="$src" top_builddir="${top_builddir:-.}" \
	    "$tmp/no-$1/sh" "$src/tests/$script" >"$tmp/out" 2>&1 </dev/null
	st=$?
	n=$((n + 1))
	if [ "$st" -ne 0 ] && grep -q "^not ok .*\\<$1\\>" "$tmp/out" &&
	    ! grep -q '^ok ' "$tmp/out"; then
		echo "ok $n - $script fails without $1 (status $st), saying so"
	else
		failed=$((failed + 1))
		echo "not ok $n - $script fails without $1 (status $st), saying so"
		sed 's/^/# /' "$tmp/out" | head -n 20
	fi
}

fails_without demo-tmux.sh pgrep pkill ps
fails_without ui-tmux.sh zbarimg
fails_without ui-chat-tmux.sh tmux
fails_without ui-group-tmux.sh python3
fails_without ui-history-tmux.sh openssl
fails_without sim-tls.sh openssl
fails_without sim-dm-crash.sh sqlite3
fails_without app-sim.sh curl
fails_without check-man.sh groff
echo "1..$n"
[ "$failed" -eq 0 ]
