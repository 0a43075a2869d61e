#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every built binary binds protobuf_c_* to the system's protobuf-c 1.4.1,
# not to the 1.1.1 copy that Debian's libsignal-protocol-c 2.3.3 exports:
# libprotobuf-c must come before libsignal-protocol-c among the libraries
# a binary needs (the dynamic linker binds every caller, libsignal included,
# to the first definition), and the binary itself reports 1.4.1.  TAP.
b=${top_builddir:-.}
bins="wachat tests/wa-bin-json tests/test-wa-bin tests/test-wa-pb"
for extra in tests/sim/wachat-sim tests/wa-conn-driver; do
	[ -x "$b/$extra" ] && bins="$bins $extra"
done
n=0
runtime="wachat"
[ -x "$b/tests/sim/wachat-sim" ] && runtime="$runtime tests/sim/wachat-sim"
total=$(($(echo $bins | wc -w) + $(echo $runtime | wc -w)))
echo "1..$total"
for bin in $bins; do
	n=$((n + 1))
	needed=$(readelf -d "$b/$bin" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
	pc=$(echo "$needed" | grep -n '^libprotobuf-c\.so' | cut -d: -f1)
	sig=$(echo "$needed" | grep -n '^libsignal-protocol-c\.so' | cut -d: -f1)
	if [ -z "$needed" ]; then
		echo "not ok $n - $bin: cannot read its dynamic section"
	elif [ -n "$sig" ] && { [ -z "$pc" ] || [ "$pc" -gt "$sig" ]; }; then
		echo "not ok $n - $bin: libsignal-protocol-c comes before libprotobuf-c"
	else
		echo "ok $n - $bin: libprotobuf-c precedes libsignal-protocol-c (or the latter is not needed)"
	fi
done
# From inside each program: the protobuf-c it reports, and where the
# dynamic linker found protobuf_c_message_unpack (the symbol libsignal's
# own calls resolve to through the same global scope).
for bin in $runtime; do
	n=$((n + 1))
	v=$("$b/$bin" --version | sed -n 's/^protobuf-c //p')
	case "$v" in
	"1.4.1 ("*libprotobuf-c.so*) echo "ok $n - $bin binds protobuf-c $v" ;;
	*) echo "not ok $n - $bin binds protobuf-c '$v', want 1.4.1 from libprotobuf-c.so" ;;
	esac
done
