#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The generated files match their generators' output for the protocol's
# token lists (protocol.md 4.2), found in $WA_PROTOCOL_DIR or beside the
# checkout in ../shared/protocol.  TAP.
src=${top_srcdir:-.}
dir=${WA_PROTOCOL_DIR:-$src/../shared/protocol}
single=$dir/tokens-single.txt
double=$dir/tokens-double.txt
if [ ! -f "$single" ] || [ ! -f "$double" ]; then
	echo "1..0 # SKIP the token lists are not in $dir"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
n=0
check() {	# check DESCRIPTION GENERATOR FILE
	n=$((n + 1))
	if sh "$src/tools/$2" "$single" "$double" >"$tmp/out" 2>"$tmp/err" &&
	    cmp -s "$tmp/out" "$src/$3"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$tmp/err"
		diff "$tmp/out" "$src/$3" | head -n 20 | sed 's/^/# /'
	fi
}
check "proto/tokens.c is what tools/gen-tokens.sh makes" gen-tokens.sh proto/tokens.c
check "tests/fuzz/wa-bin.dict is what tools/gen-fuzz-dict.sh makes" gen-fuzz-dict.sh tests/fuzz/wa-bin.dict
