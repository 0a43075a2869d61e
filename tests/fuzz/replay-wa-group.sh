#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the group readers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-group" "${top_srcdir:-.}/tests/fuzz/corpus/wa-group"
