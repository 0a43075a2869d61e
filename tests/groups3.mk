# SPDX-License-Identifier: GPL-3.0-or-later
# Groups and sessions, the third part (issue 15): the sources' size limits
# (tests/check-size.sh).
TESTS += tests/check-size.sh
EXTRA_DIST += tests/check-size.sh

# The event wire fuzz target's seeds, made by the encoder at the current
# version (tests/fuzz/ev-wire-seeds.c), and the version-1 ones kept.
check_PROGRAMS += tests/fuzz/ev-wire-seeds
tests_fuzz_ev_wire_seeds_SOURCES = tests/fuzz/ev-wire-seeds.c
tests_fuzz_ev_wire_seeds_LDADD = libbase.a
TESTS += tests/fuzz/ev-wire-seeds.sh
EXTRA_DIST += tests/fuzz/ev-wire-seeds.sh

# A contact's message on a session wachat cannot use: one retry receipt
# with wachat's <keys>, answered by the sim's phone (point 1).
TESTS += tests/sim-dm-retry-keys.sh
EXTRA_DIST += tests/sim-dm-retry-keys.sh
# The typed notices in German on the screen and from the database.
TESTS += tests/ui-de-notice-tmux.sh
EXTRA_DIST += tests/ui-de-notice-tmux.sh
