# SPDX-License-Identifier: GPL-3.0-or-later
# Media fixes (issue 19, a fresh user's report): ~ in download-dir, five
# downloads of one file name at once, a downloaded file deleted from the
# disk (tests/mediafix19-tmux.sh).
TESTS += tests/mediafix19-tmux.sh
EXTRA_DIST += tests/mediafix19-tmux.sh
# Line mode's words for media and locations (tests/mediafix19-line.sh).
TESTS += tests/mediafix19-line.sh
EXTRA_DIST += tests/mediafix19-line.sh
