#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the node decoder's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-bin" "${top_srcdir:-.}/tests/fuzz/corpus/wa-bin"
