# SPDX-License-Identifier: GPL-3.0-or-later
# Media, downloading (issue 19): the download, open and save-as keys, the
# media retry of an expired URL, a flipped byte, a wrong length and a size
# over the cap through wachat-sim's faults, wachat media from the shell
# (tests/mediaget19-tmux.sh).
TESTS += tests/mediaget19-tmux.sh
EXTRA_DIST += tests/mediaget19-tmux.sh
