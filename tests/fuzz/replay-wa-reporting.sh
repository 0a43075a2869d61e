#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the reporting token walk's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-reporting" "${top_srcdir:-.}/tests/fuzz/corpus/wa-reporting"
