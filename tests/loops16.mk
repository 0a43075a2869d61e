# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16, points 5 and 7: no endless loops (the QR codes running out,
# a <failure> with no retry), and the version look-up as a browser asks
# for the page, the version found kept.
TESTS += tests/loops16-tmux.sh tests/loops16-version.sh \
	tests/loops16-baileys.sh
EXTRA_DIST += tests/loops16-tmux.sh tests/loops16-version.sh \
	tests/loops16-baileys.sh tests/sim-interop/baileys-noscan.mjs
