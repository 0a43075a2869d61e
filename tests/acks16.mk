# SPDX-License-Identifier: GPL-3.0-or-later
# Every stanza acked as the server expects (issue 16 points 2 and 3): a
# <call> is acked and shown (tests/ack-call-tmux.sh: offer and
# terminate, the offline queue, no redelivery after a restart); a group
# notification's ack carries its participant (tests/ack-notify.sh); a
# malformed <call> is acked and logged (tests/ack-call-malformed.sh).
# The sim redelivers a <call> or <notification> until an ack that
# matches (id, class, participant, recipient).
TESTS += tests/ack-call-tmux.sh tests/ack-notify.sh \
	tests/ack-call-malformed.sh
EXTRA_DIST += tests/ack-call-tmux.sh tests/ack-notify.sh \
	tests/ack-call-malformed.sh
