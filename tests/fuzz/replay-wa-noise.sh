#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the Noise handshake's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-noise" "${top_srcdir:-.}/tests/fuzz/corpus/wa-noise"
