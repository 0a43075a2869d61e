# SPDX-License-Identifier: GPL-3.0-or-later
# Profiles and blocking (issue 20): a contact's info page with its
# picture, about text and last seen; block and unblock
# (tests/profiles20-tmux.sh).
TESTS += tests/profiles20-tmux.sh
EXTRA_DIST += tests/profiles20-tmux.sh
# Baileys reads the same answers from the sim (tests/sim-baileys-profile.sh).
TESTS += tests/sim-baileys-profile.sh
EXTRA_DIST += tests/sim-baileys-profile.sh tests/sim-interop/baileys-profile.mjs
