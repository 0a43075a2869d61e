# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the sim piece: app state ("syncd", protocol-features.md 2) in
# wachat-sim (tests/sim/appstate.c), through its admin interface and
# against Baileys companions.
TESTS += tests/sim-appstate.sh
EXTRA_DIST += tests/sim-appstate.sh tests/sim-interop/baileys-appstate.mjs
