# SPDX-License-Identifier: GPL-3.0-or-later
# Notifications (issue 17 point 3): the bell, OSC 777 through tmux to the
# outer terminal, notify-command, muted chats, reactions, the title
# (tests/notify17-tmux.sh).
TESTS += tests/notify17-tmux.sh
EXTRA_DIST += tests/notify17-tmux.sh
