# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, points 9 and 12: who reacted, and who did what in a group.
# reactnames17-react-tmux: a reaction line names who sent each emoji
# ("👍 2 You, NAME"), counts the names that do not fit the pane ("+1"),
# and follows a change and a removal live and after a restart.
# reactnames17-group-tmux: a group's event lines name their people as
# known when shown ("bob created the group"), and say You for us.
TESTS += tests/reactnames17-react-tmux.sh tests/reactnames17-group-tmux.sh
EXTRA_DIST += tests/reactnames17-react-tmux.sh tests/reactnames17-group-tmux.sh
