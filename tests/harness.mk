# SPDX-License-Identifier: GPL-3.0-or-later
# The test harness's own checks (issue 15): tools/setup.sh's two set-ups
# (--demo for the demo, the full one for the tests) and the failing TAP
# line of a test whose tool is missing.
TESTS += tests/check-setup.sh tests/check-tools.sh
EXTRA_DIST += tests/check-setup.sh tests/check-tools.sh tests/harness.mk
