#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the history sync readers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-history" "${top_srcdir:-.}/tests/fuzz/corpus/wa-history"
