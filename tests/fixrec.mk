# SPDX-License-Identifier: GPL-3.0-or-later
# Damaged Signal records quarantined and rebuilt (issue 15, point 1):
# sender keys (own and a member's), sessions, identities.
TESTS += tests/sim-group-records.sh tests/sim-session-records.sh
EXTRA_DIST += tests/sim-group-records.sh tests/sim-session-records.sh
