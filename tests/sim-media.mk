# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, the sim piece: media in wachat-sim (tests/sim/media.c,
# tests/sim/phone-media.c, protocol-features.md 1), through its admin
# interface and curl, and against Baileys.
TESTS += tests/sim-media.sh
EXTRA_DIST += tests/sim-media.sh tests/sim-interop/baileys-media.mjs
