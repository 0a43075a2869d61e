# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, sending media end to end (tests/mediasend19-tmux.sh): a
# photo, a voice note, a document and a sticker from the screen, each
# decrypted by the contact's phone; a refused upload retried with
# Ctrl-t; kill -9 during an upload, sent once after the restart; wachat
# send --file.
TESTS += tests/mediasend19-tmux.sh
EXTRA_DIST += tests/mediasend19-tmux.sh tests/mediasend19-lib.sh
# wachat's photo and document to an unmodified Baileys, downloaded to
# the same bytes (tests/mediasend19-baileys.sh).
TESTS += tests/mediasend19-baileys.sh
EXTRA_DIST += tests/mediasend19-baileys.sh \
	tests/sim-interop/wachat-media-baileys.mjs
