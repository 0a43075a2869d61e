# SPDX-License-Identifier: GPL-3.0-or-later
# Media, first piece (issue 19): receiving the metadata of photos, voice
# notes, videos, documents and stickers and showing it: the pane, the
# chat list, the C and German locales, wachat history and export
# (tests/media19-recv-tmux.sh, through wachat-sim's send-media route).
TESTS += tests/media19-recv-tmux.sh
EXTRA_DIST += tests/media19-recv-tmux.sh
