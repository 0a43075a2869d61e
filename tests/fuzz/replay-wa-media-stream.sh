#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the streaming media readers' fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-media-stream" "${top_srcdir:-.}/tests/fuzz/corpus/wa-media-stream"
