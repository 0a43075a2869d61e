# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 15's connection tests: a pairing that drops around
# pair-device-sign (tests/sim-pair-drop.sh), and a hostile loopback server
# (tests/hostile/hostile.py, python3) that answers with garbage, resets
# and silence at every stage before the handshake, with wachat-sim's
# knobs for the stages after it (tests/hostile-conn.sh).
TESTS += tests/sim-pair-drop.sh tests/hostile-conn.sh
EXTRA_DIST += tests/sim-pair-drop.sh tests/hostile-conn.sh \
	tests/hostile/hostile.py
