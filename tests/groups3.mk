# SPDX-License-Identifier: GPL-3.0-or-later
# Groups and sessions, the third part (issue 15): the sources' size limits
# (tests/check-size.sh).
TESTS += tests/check-size.sh
EXTRA_DIST += tests/check-size.sh
