#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the Message parser's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-msg" "${top_srcdir:-.}/tests/fuzz/corpus/wa-msg"
