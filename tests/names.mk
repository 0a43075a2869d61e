# SPDX-License-Identifier: GPL-3.0-or-later
# Names that hide invisible characters, as the shell prints them
# (tests/check-cli-names.sh, on a database tests/cli-db-fill makes).
TESTS += tests/check-cli-names.sh
EXTRA_DIST += tests/check-cli-names.sh
