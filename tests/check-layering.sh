#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The folders are the layers (style.md 3.1): base/ (libc only) at the
# bottom; proto/, store/ and ui/ on it and never on each other; src/, the
# composition root, on all of them.  tests/layering.py checks the includes
# of each folder and nm of each static library (see its opening comment);
# this script runs both on the tree as built, then shows that each check
# fails on a scratch copy with one wrong include or one wrong call.  TAP.
src=${top_srcdir:-.}
build=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for t in python3 nm ar "${CC:-cc}"; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "Bail out! $t is not installed"
		exit 1
	fi
done
py() { python3 "$src/tests/layering.py" "$@"; }
echo "1..6"

# 1, 2: the tree as it is.
if py includes "$src" >"$tmp/out" 2>&1; then
	echo "ok 1 - every include in base/ proto/ store/ ui/ src/ goes down a layer"
else
	echo "not ok 1 - every include in base/ proto/ store/ ui/ src/ goes down a layer"
	sed 's/^/# /' "$tmp/out"
fi
if py symbols "$build" >"$tmp/out" 2>&1; then
	echo "ok 2 - each library uses only the layers below it, and no files of one call each other in a circle"
else
	echo "not ok 2 - each library uses only the layers below it, and no files of one call each other in a circle"
	sed 's/^/# /' "$tmp/out"
fi

# 3, 4: a scratch copy of the sources with one wrong include each; the
# include check must fail and name it.
copy() {
	rm -rf "$tmp/tree" && mkdir "$tmp/tree" &&
	    for d in base proto store ui src; do cp -R "$src/$d" "$tmp/tree/$d"; done
}
expect_fail() { # n, description, command..., pattern in $pat
	n=$1 what=$2
	shift 2
	if "$@" >"$tmp/out" 2>&1; then
		echo "not ok $n - $what (the check passed)"
	elif grep -q -- "$pat" "$tmp/out"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (it failed for another reason)"
		sed 's/^/# /' "$tmp/out"
	fi
}
copy
f=$(cd "$tmp/tree" && ls ui/*.c | head -n 1)
printf '#include "store/store.h"\n' >>"$tmp/tree/$f"
pat="$f:.*ui/ must not include store/"
expect_fail 3 "a ui/ file that includes store/store.h fails the include check" py includes "$tmp/tree"
copy
f=$(cd "$tmp/tree" && ls proto/*.c | head -n 1)
printf '#include <curses.h>\n' >>"$tmp/tree/$f"
pat="$f:.*<curses.h> is not for proto/"
expect_fail 4 "a proto/ file that includes <curses.h> fails the include check" py includes "$tmp/tree"

# 5, 6: the built libraries with one wrong object added; the symbol check
# must fail and name it.
mkdir "$tmp/lib"
cp "$build"/lib*.a "$tmp/lib/"
cat >"$tmp/wrong.c" <<'EOF'
int store_open(void);
int wnoutrefresh(void *);
int wrong_call(void) { return store_open() + wnoutrefresh(0); }
EOF
${CC:-cc} -c -o "$tmp/wrong.o" "$tmp/wrong.c" || echo "Bail out! cc failed"
ar r "$tmp/lib/libproto.a" "$tmp/wrong.o" 2>/dev/null
pat="libproto.a(wrong.o) takes store_open from libstore.a"
expect_fail 5 "a proto/ object that calls store_open fails the symbol check" py symbols "$tmp/lib"
pat="libproto.a(wrong.o) references wnoutrefresh (curses)"
expect_fail 6 "a proto/ object that calls curses fails the symbol check" py symbols "$tmp/lib"
