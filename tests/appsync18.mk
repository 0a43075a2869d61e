# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: app state sync end to end through wachat-sim's phone.
# appsync18-sync-tmux: after linking, the chat list by address-book
# names, the demo's muted, pinned and archived chats as the phone has
# them (wachat chats --json), a rename on the phone after server_sync,
# a restart asking from the stored versions.
# appsync18-faults-tmux: a bad patch MAC, a missing key and a bad
# snapshot MAC each recover (logged; the final state the phone's).
# appsync18-kill-tmux: kill -9 in the middle of an 8,000-contact import,
# started again: the store's names, versions and LTHashes the phone's.
TESTS += tests/appsync18-sync-tmux.sh tests/appsync18-faults-tmux.sh \
	tests/appsync18-kill-tmux.sh
EXTRA_DIST += tests/appsync18-sync-tmux.sh tests/appsync18-faults-tmux.sh \
	tests/appsync18-kill-tmux.sh \
	tests/appsync18-compare.py
