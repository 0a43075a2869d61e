#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the media blob decryption's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-media" "${top_srcdir:-.}/tests/fuzz/corpus/wa-media"
