# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 13: search in Chinese, Japanese and Korean (the bigram
# tokenizer of store/fts-tok.c, migration 12) in the screen and the shell.
TESTS += tests/cjk17-search-tmux.sh
EXTRA_DIST += tests/cjk17-search-tmux.sh
