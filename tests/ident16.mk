# SPDX-License-Identifier: GPL-3.0-or-later
# A contact's identity changed (issue 16, point 6; protocol.md 11.7): the
# server's <notification type="encrypt"><identity/></notification> after a
# reinstall (wachat-sim phone-reinstall PN pn|lid) resets that user's
# sessions, identities, sender-key holders and device list, so the next
# 1:1 and group sends start fresh; the reset is kept across a restart; a
# notification for an unknown user changes nothing.
TESTS += tests/ident16-dm.sh tests/ident16-group.sh \
	tests/ident16-restart.sh
EXTRA_DIST += tests/ident16-dm.sh tests/ident16-group.sh \
	tests/ident16-restart.sh
