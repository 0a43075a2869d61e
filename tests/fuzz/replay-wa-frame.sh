#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the frame reader's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-frame" "${top_srcdir:-.}/tests/fuzz/corpus/wa-frame"
