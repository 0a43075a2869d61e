#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the stanza readers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-stanza" "${top_srcdir:-.}/tests/fuzz/corpus/wa-stanza"
