# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, points 9 and 12: names where the screen says who.
# names17-status-tmux: the status line says "connected as NAME (+number)",
# the name from the server's account_sync and, started again, from the
# database.
# names17-hint-tmux: the selected message's keys (edit and delete only on
# ours), and the key page's reply key as the README says it.
# names17-group-tmux: in a group's info we are "You" with our push name.
# names17-quote-tmux: a quote names whose message it quotes.
# names17-history-tmux: history sync's progress counts the transfer.
# names17-shell: the shell says "You" as the screen does, not "me".
TESTS += tests/names17-shell.sh tests/names17-status-tmux.sh tests/names17-hint-tmux.sh \
	tests/names17-group-tmux.sh tests/names17-quote-tmux.sh \
	tests/names17-history-tmux.sh
EXTRA_DIST += tests/names17-shell.sh tests/names17-status-tmux.sh tests/names17-hint-tmux.sh \
	tests/names17-group-tmux.sh tests/names17-quote-tmux.sh \
	tests/names17-history-tmux.sh
