# SPDX-License-Identifier: GPL-3.0-or-later
# The database's health (issue 15, points 8-10; reliability.md rule 9):
# what is wrong said in words with its exit status, a damaged database
# kept and moved aside only on request, the data dir's lock, the
# background check, 20 seeded corruptions of a linked wachat's database,
# and wachat backup while wachat runs.
TESTS += tests/db-health.sh tests/db-corrupt.sh tests/db-backup.sh
EXTRA_DIST += tests/db-health.sh tests/db-corrupt.sh tests/db-backup.sh \
	tests/db-flip.py
