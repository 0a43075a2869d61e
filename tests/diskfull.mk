# SPDX-License-Identifier: GPL-3.0-or-later
# A full disk (issue 15, point 7): tests/fakes/enospc-preload.so, an
# LD_PRELOAD library that makes writes under one directory fail with
# ENOSPC while a control file exists, and the screen test that fills the
# disk under a running wachat and frees it again.  The library is built
# without the sanitizers (it is preloaded into instrumented and plain
# programs alike) and without large-file renames, so that it defines
# pwrite and pwrite64 both.
tests/fakes/enospc-preload.so: $(srcdir)/tests/fakes/enospc-preload.c
	@$(MKDIR_P) tests/fakes
	$(AM_V_CC)$(CC) -shared -fPIC -O2 -U_FILE_OFFSET_BITS \
	    -o $@ $(srcdir)/tests/fakes/enospc-preload.c -ldl
check_DATA = tests/fakes/enospc-preload.so
CLEANFILES += tests/fakes/enospc-preload.so
EXTRA_DIST += tests/fakes/enospc-preload.c

# The whole client with the disk full, in a real terminal.
TESTS += tests/diskfull-tmux.sh
EXTRA_DIST += tests/diskfull-tmux.sh
