# SPDX-License-Identifier: GPL-3.0-or-later
# Signal interop (issue 6, "Done when"): whatsapp-rust-bridge's
# SessionCipher (Rust/WASM) and Baileys' libsignal (JS) decrypt the pkmsg
# and msg that wachat's libsignal-protocol-c layer makes from their prekey
# bundles, and wachat decrypts theirs made from its bundle
# (signal-check.mjs, TAP); tests/interop/wa-signal-tool is the C side.
check_PROGRAMS += tests/interop/wa-signal-tool
tests_interop_wa_signal_tool_SOURCES = tests/interop/wa-signal-tool.c
tests_interop_wa_signal_tool_CPPFLAGS = $(AM_CPPFLAGS)
tests_interop_wa_signal_tool_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS)
tests_interop_wa_signal_tool_LDADD = libapp.a libproto.a libstore.a \
	libbase.a $(PROTO_LIBS) $(STORE_LIBS)
TESTS += tests/interop/signal-check.sh
EXTRA_DIST += tests/interop/signal-check.sh tests/interop/signal-check.mjs
