#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The size limits of /work/shared/docs/style.md for the client's own
# sources (base/ proto/ store/ ui/ src/): at most 1200 lines a file
# (ui/: 900), and no function above 30 in pmccabe's second column (the
# modified cyclomatic complexity).  Files marked GENERATED in their first
# comment (proto/tokens.c) are left out.  A missing pmccabe fails.  TAP.
src=${srcdir:-.}
echo "1..2"
if ! command -v pmccabe >/dev/null 2>&1; then
	echo "not ok 1 - files within their line limits # pmccabe missing"
	echo "not ok 2 - functions within complexity 30: pmccabe is not" \
	    "installed (sh tools/setup.sh installs it)"
	exit 1
fi
files=$(find "$src/base" "$src/proto" "$src/store" "$src/ui" "$src/src" \
    -name '*.[ch]' | sort)
long=
for f in $files; do
	head -n 5 "$f" | grep -q GENERATED && continue
	lim=1200
	case $f in "$src"/ui/*) lim=900;; esac
	l=$(wc -l <"$f")
	[ "$l" -gt "$lim" ] && long="$long ${f#"$src"/}:$l>$lim"
done
if [ -z "$long" ]; then
	echo "ok 1 - files within their line limits"
else
	echo "not ok 1 - files within their line limits"
	echo "#  over:$long"
fi
cx=$(for f in $files; do
	head -n 5 "$f" | grep -q GENERATED && continue
	case $f in *.c) pmccabe "$f";; esac
done | awk '$2 > 30 { print "#   " $0 }')
if [ -z "$cx" ]; then
	echo "ok 2 - functions within complexity 30"
else
	echo "not ok 2 - functions within complexity 30"
	echo "$cx"
fi
[ -z "$long" ] && [ -z "$cx" ]
