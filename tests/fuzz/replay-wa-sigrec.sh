#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the fuzz corpus of the Signal records read from the database (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-sigrec" "${top_srcdir:-.}/tests/fuzz/corpus/wa-sigrec"
