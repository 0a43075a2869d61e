#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The seeds of fuzz-ev-wire are what the encoder writes now
# (tests/fuzz/ev-wire-seeds check): at the current EV_WIRE_VERSION, so
# the fuzzer starts past the version check, with the typed notices among
# them; and a few frames of version 1 are kept as regression inputs.
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
# byte 4 of a frame is its version
v2=0 v1=0 other=
for f in "$c"/*; do
	v=$(od -An -tu1 -j4 -N1 "$f" | tr -d ' ')
	case ${f##*/} in
	v1-*)	[ "$v" = 1 ] && v1=$((v1 + 1)) || other="$other ${f##*/}";;
	*)	[ "$v" = 2 ] && v2=$((v2 + 1)) || other="$other ${f##*/}";;
	esac
done
if [ -z "$other" ] && [ "$v2" -ge 50 ]; then
	echo "ok 2 - every seed but the v1-* ones is of version 2 ($v2)"
else
	echo "not ok 2 - every seed but the v1-* ones is of version 2" \
	    "($v2; other:$other)"
	st=1
fi
if [ "$v1" -ge 3 ]; then
	echo "ok 3 - $v1 seeds of version 1 kept as regression inputs"
else
	echo "not ok 3 - version-1 regression seeds kept ($v1 found)"
	st=1
fi
[ -z "$out" ] || st=1
exit $st
