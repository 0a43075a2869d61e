# SPDX-License-Identifier: GPL-3.0-or-later
# wachat-sim, the local WhatsApp-compatible server (tests/sim/README.md),
# and the tests that drive it: wachat's transport (tests/sim-conn.sh) and
# Baileys and whatsapp-rust-bridge against it (tests/sim-interop/).
noinst_PROGRAMS += tests/sim/wachat-sim
tests_sim_wachat_sim_SOURCES = \
	tests/sim/main.c tests/sim/sim.h \
	tests/sim/ws.c tests/sim/session.h \
	tests/sim/pair.c \
	tests/sim/prekeys.c \
	tests/sim/route.c tests/sim/route.h \
	tests/sim/offline.c \
	tests/sim/route-group.c \
	tests/sim/route-presence.c \
	tests/sim/ident.c \
	tests/sim/group.c tests/sim/group.h \
	tests/sim/group-admin.c \
	tests/sim/phone.c tests/sim/phone.h \
	tests/sim/phone-store.c \
	tests/sim/phone-send.c \
	tests/sim/phone-media-meta.c tests/sim/phone-kinds.c tests/sim/phone-poll.c \
	tests/sim/phone-group.c \
	tests/sim/phone-retry.c \
	tests/sim/phone-chatty.c \
	tests/sim/history.c tests/sim/history.h \
	tests/sim/history-gen.c \
	tests/sim/history-admin.c \
	tests/sim/media.c \
	tests/sim/phone-media.c \
	tests/sim/appstate.c tests/sim/appstate.h \
	tests/sim/appstate-admin.c \
	tests/sim/account.c \
	tests/sim/keys.c tests/sim/keys.h \
	tests/sim/nodes.c tests/sim/nodes.h \
	tests/sim/pbw.c tests/sim/pbw.h \
	tests/sim/http.c tests/sim/http.h \
	tests/sim/admin.c \
	tests/sim/tokens.c tests/sim/tokens.h \
	tests/sim/loops.c \
	tests/sim/call.c \
	tests/sim/profile.c \
	tests/sim/ctl.c
tests_sim_wachat_sim_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSIM_ROOT_KEY_FILE='"$(abs_top_srcdir)/tests/sim/root-key.txt"'
tests_sim_wachat_sim_CFLAGS = $(AM_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(LWS_CFLAGS) $(UV_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) \
	$(OPENSSL_CFLAGS) $(SODIUM_CFLAGS) $(ZLIB_CFLAGS) $(JPEG_CFLAGS)
tests_sim_wachat_sim_LDADD = libproto.a libbase.a $(PROTO_LIBS) \
	$(LWS_LIBS) $(UV_LIBS) $(JSONC_LIBS) $(CURL_LIBS) $(JPEG_LIBS) -ldl

SIM_TESTS = tests/sim-conn.sh tests/sim-tls.sh tests/sim-baileys.sh \
	tests/sim-baileys-connect.sh tests/sim-baileys-pairing.sh \
	tests/sim-knobs.sh tests/sim-route.sh tests/sim-phone.sh \
	tests/sim-group.sh tests/sim-history.sh \
	tests/sim-bridge-cert.sh \
	tests/sim-bridge-noise.sh
TESTS += $(SIM_TESTS)
EXTRA_DIST += $(SIM_TESTS) tests/sim/root-key.txt tests/sim/README.md \
	tests/sim-lib.sh \
	tests/sim-interop/baileys-pair.mjs \
	tests/sim-interop/baileys-connect.mjs \
	tests/sim-interop/baileys-pairing.mjs \
	tests/sim-interop/baileys-route.mjs \
	tests/sim-interop/baileys-group.mjs \
	tests/sim-interop/baileys-history.mjs \
	tests/sim-interop/bridge-cert.mjs \
	tests/sim-interop/bridge-noise.mjs \
	tests/sim-interop/lib.mjs \
	tests/sim-interop/node.sh
