# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16, points 4 and 8: <ib><unified_session>, the offline backlog
# pulled in batches (wachat and Baileys against the strict sim), and the
# DeviceProps the phone sees (tests/sim/offline.c).
TESTS += tests/sim-ib-wachat.sh tests/sim-baileys-offline.sh
EXTRA_DIST += tests/sim-ib-wachat.sh tests/sim-baileys-offline.sh \
	tests/sim-interop/baileys-offline.mjs
