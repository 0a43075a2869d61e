# SPDX-License-Identifier: GPL-3.0-or-later
# The protocol engine: no curses, no SQL.
noinst_LIBRARIES += libproto.a
libproto_a_CPPFLAGS = $(AM_CPPFLAGS) -DWC_IN_PROTO $(ZLIB_CFLAGS) \
	$(PROTOBUFC_CFLAGS)
libproto_a_SOURCES = \
	proto/bin.h proto/bin.c proto/print.c \
	proto/tokens.h proto/tokens.c \
	proto/pb.h proto/pb.c \
	proto/node.h proto/node.c \
	proto/usync.h proto/usync.c \
	proto/dm.h proto/dm-int.h proto/dm.c proto/dm-util.c \
	proto/dm-job.c proto/dm-direct.c proto/dm-group.c \
	proto/dm-admin.c proto/dm-recv.c proto/dm-receipt.c \
	proto/dm-send.c proto/dm-peer.c proto/dm-ident.c proto/dm-poll.c \
	proto/call.h proto/call.c proto/dm-call.c
# Privacy tokens (protocol.md 15.6, issue 16).
libproto_a_SOURCES += proto/privtok.h proto/privtok.c proto/dm-tok.c

# Protobuf schemas (protocol.md 17), compiled by protoc-c into the build
# tree.
PROTO_FILES = proto/wa6.proto proto/cert.proto proto/adv.proto
PROTO_GEN = \
	proto/wa6.pb-c.c proto/wa6.pb-c.h \
	proto/cert.pb-c.c proto/cert.pb-c.h \
	proto/adv.pb-c.c proto/adv.pb-c.h
nodist_libproto_a_SOURCES = $(PROTO_GEN)
BUILT_SOURCES = $(PROTO_GEN)
CLEANFILES += $(PROTO_GEN)
EXTRA_DIST += $(PROTO_FILES)
AM_CPPFLAGS += -I$(top_builddir)/proto

proto/%.pb-c.c proto/%.pb-c.h: $(srcdir)/proto/%.proto
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --c_out=proto -I$(srcdir)/proto $<

# Every program that links libproto.a links these, protobuf-c before
# libsignal-protocol-c: libsignal-protocol-c 2.3.3 exports its own copy of
# protobuf-c 1.1.1, and the first definition in the link order is the one
# every caller binds to.
PROTO_LIBS = $(PROTOBUFC_LIBS) $(SIGNAL_LIBS) $(SODIUM_LIBS) $(OPENSSL_LIBS) $(ZLIB_LIBS)
