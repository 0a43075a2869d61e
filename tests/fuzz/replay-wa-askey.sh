#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the app-state key messages' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-askey" "${top_srcdir:-.}/tests/fuzz/corpus/wa-askey"
