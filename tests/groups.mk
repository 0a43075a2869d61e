# SPDX-License-Identifier: GPL-3.0-or-later
# Groups and sessions (issue 15, points 1-3): wachat's engine
# (tests/wa-eng-driver) with simulated phones through wachat-sim: a
# member's corrupt session, a member who reinstalls, a sender key and its
# skmsg under PN and LID.  tests/sim-groups-lib.sh is their shared part.
TESTS += tests/sim-group-session.sh tests/sim-group-reinstall.sh \
	tests/sim-group-lidpn.sh
EXTRA_DIST += tests/sim-group-session.sh tests/sim-group-reinstall.sh \
	tests/sim-group-lidpn.sh tests/sim-groups-lib.sh
