#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the Signal decryption's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-signal" "${top_srcdir:-.}/tests/fuzz/corpus/wa-signal"
