#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the app-state readers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-appstate" "${top_srcdir:-.}/tests/fuzz/corpus/wa-appstate"
