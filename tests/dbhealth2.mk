# SPDX-License-Identifier: GPL-3.0-or-later
# The database's health, second part (issue 15, points 8-10): a damaged
# database kept in sight on the status line until quit, a damaged schema
# version told from a newer wachat's, one line for each failure, and
# "permission denied" with its path as an unprivileged user.
TESTS += tests/db-warn-tmux.sh tests/db-errors.sh
EXTRA_DIST += tests/db-warn-tmux.sh tests/db-errors.sh
