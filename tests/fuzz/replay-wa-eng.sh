#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the engine's stanza handlers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-eng" "${top_srcdir:-.}/tests/fuzz/corpus/wa-eng"
