# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 15, fixlock: another SQLite client on a running wachat's database
# loses nothing; a group message's phash survives until it is sent;
# a burst of messages keeps its arrival order.
TESTS += tests/db-lock.sh tests/sim-group-phash.sh tests/sim-burst.sh
EXTRA_DIST += tests/db-lock.sh tests/sim-group-phash.sh tests/sim-burst.sh
