# SPDX-License-Identifier: GPL-3.0-or-later
# The status line and the words of a tester's findings (issue 15, points
# 7 and 8): the status line follows the connection while the disk is
# full.
TESTS += tests/fixstatus-disk-tmux.sh
EXTRA_DIST += tests/fixstatus-disk-tmux.sh

# What wachat and its shell commands say about the database.
TESTS += tests/fixstatus-words.sh
EXTRA_DIST += tests/fixstatus-words.sh

# Older messages asked of the phone: the note ends with the answer, one
# request in flight.
TESTS += tests/fixstatus-older-tmux.sh
EXTRA_DIST += tests/fixstatus-older-tmux.sh
