#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The seeds of fuzz-ev-wire are what the encoder writes now
# (tests/fuzz/ev-wire-seeds check): at the current EV_WIRE_VERSION, so
# the fuzzer starts past the version check, with the typed notices among
# them; and a few frames of each older version (v1-*, v2-*, v3-*) are kept as
# regression inputs.
# After a change of the wire form: tests/fuzz/ev-wire-seeds write
# tests/fuzz/corpus/ev-wire.  TAP.
b=${top_builddir:-.}
c=${top_srcdir:-.}/tests/fuzz/corpus/ev-wire
echo "1..3"
if out=$("$b/tests/fuzz/ev-wire-seeds" check "$c" 2>&1); then
	echo "ok 1 - each seed is the encoder's frame of today"
else
	echo "not ok 1 - each seed is the encoder's frame of today"
	echo "$out" | head -n 20 | sed 's/^/#   /'
fi
st=0
# the version the encoder writes, from its header
cur=$(sed -n 's/^#define EV_WIRE_VERSION[^0-9]*\([0-9][0-9]*\).*/\1/p' \
    "${top_srcdir:-.}/base/event-wire.h")
# byte 4 of a frame is its version
now=0 old=0 other=
for f in "$c"/*; do
	v=$(od -An -tu1 -j4 -N1 "$f" | tr -d ' ')
	case ${f##*/} in
	v[0-9]-*)
		n=${f##*/v}; n=${n%%-*}
		[ "$v" = "$n" ] && [ "$n" -lt "${cur:-0}" ] &&
		    old=$((old + 1)) || other="$other ${f##*/}";;
	*)	[ "$v" = "$cur" ] && now=$((now + 1)) || other="$other ${f##*/}";;
	esac
done
if [ -n "$cur" ] && [ -z "$other" ] && [ "$now" -ge 50 ]; then
	echo "ok 2 - every seed but the vN-* ones is of version $cur ($now)"
else
	echo "not ok 2 - every seed but the vN-* ones is of version ${cur:-?}" \
	    "($now; other:$other)"
	st=1
fi
if [ "$old" -ge 6 ]; then
	echo "ok 3 - $old seeds of older versions kept as regression inputs"
else
	echo "not ok 3 - older-version regression seeds kept ($old found)"
	st=1
fi
[ -z "$out" ] || st=1
exit $st
