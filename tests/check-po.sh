#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The translators' template po/wachat.pot holds every string marked for
# translation in the files of po/POTFILES.in, and nothing else: xgettext
# run again with po/Makevars' options gives the same messages.  And no
# file with a marked string is missing from POTFILES.in.  TAP.
src=${top_srcdir:-.}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for t in xgettext msgcat; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "Bail out! $t (Debian gettext) is not installed"
		exit 1
	fi
done
echo "1..2"
opts=$(sed -n 's/^XGETTEXT_OPTIONS *= *//p' "$src/po/Makevars")
files=$(grep -v '^#' "$src/po/POTFILES.in")
# shellcheck disable=SC2086
(cd "$src" && xgettext -o "$tmp/new.pot" $opts \
    --foreign-user --package-name=wachat $files) 2>"$tmp/err"
norm() {
	# Every message but the header (the first entry).
	msgcat --no-location --no-wrap --sort-output "$1" 2>>"$tmp/err" |
	    sed '1,/^$/d'
}
norm "$tmp/new.pot" >"$tmp/a"
norm "$src/po/wachat.pot" >"$tmp/b"
if [ -s "$tmp/a" ] && diff -u "$tmp/b" "$tmp/a" >"$tmp/diff"; then
	echo "ok 1 - po/wachat.pot holds every marked string (make -C po update-po)"
else
	echo "not ok 1 - po/wachat.pot holds every marked string (make -C po update-po)"
	head -n 40 "$tmp/diff" | sed 's/^/# /'
	sed 's/^/# /' "$tmp/err"
fi
missing=
marked=$(cd "$src" && grep -rl --include='*.c' -E '\<_\("|\<N_\("' base src proto ui)
for f in $marked; do
	grep -qx "$f" "$src/po/POTFILES.in" || missing="$missing $f"
done
if [ -z "$marked" ]; then
	echo "not ok 2 - every source file with marked strings is in po/POTFILES.in: no file with a marked string found (grep failed?)"
elif [ -z "$missing" ]; then
	echo "ok 2 - every source file with marked strings is in po/POTFILES.in"
else
	echo "not ok 2 - every source file with marked strings is in po/POTFILES.in:$missing"
fi
