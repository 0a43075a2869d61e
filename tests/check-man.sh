#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc/wachat.1 renders without a warning: groff (Debian groff-base, what
# man(1) runs) with every warning on (-ww) and the input's UTF-8 read as
# man does (-k, preconv).  A warning means a word or character the reader
# does not see, as \(u2580 was (an escape groff does not know: dropped).
# A missing groff fails.  TAP.
src=${top_srcdir:-.}
echo "1..1"
if ! command -v groff >/dev/null 2>&1; then
	echo "not ok 1 - doc/wachat.1 renders without warnings: groff is" \
	    "not installed (Debian groff-base; sh tools/setup.sh installs it)"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
LC_ALL=C.UTF-8 groff -k -man -Tutf8 -ww -z "$src/doc/wachat.1" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && ! [ -s "$tmp/err" ]; then
	echo "ok 1 - doc/wachat.1 renders without warnings"
else
	echo "not ok 1 - doc/wachat.1 renders without warnings (groff exit $rc)"
	head -n 20 "$tmp/err" | sed 's/^/# /'
fi
