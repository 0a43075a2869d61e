#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the fuzz corpus of the version look-up page (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-engver" "${top_srcdir:-.}/tests/fuzz/corpus/wa-engver"
