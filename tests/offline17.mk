# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, points 1, 6 and 10 (a linked wachat offline, the chat list):
# tests/offline17-start-tmux.sh: started with the server stopped, the
# chats and history show at once from the database, q is text, a message
# sent is queued and goes when the server (a relay, tests/tcp-relay.py)
# comes back.  tests/offline17-scroll-tmux.sh: the server gone, a message
# sent while paged back shows at once, queued, with the rows before it,
# and as the chat list's preview.  tests/offline17-list-tmux.sh: the chat
# list's dates (a time, Yesterday, a weekday, a short date), You: and
# the tick of our last message, Draft: marks, the input's "more lines
# above".
TESTS += tests/offline17-start-tmux.sh tests/offline17-scroll-tmux.sh \
	tests/offline17-list-tmux.sh
EXTRA_DIST += tests/offline17-start-tmux.sh tests/offline17-scroll-tmux.sh \
	tests/offline17-list-tmux.sh tests/tcp-relay.py
