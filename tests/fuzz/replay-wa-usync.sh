#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the fuzz corpus of the usync and prekey-bundle answers (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-usync" "${top_srcdir:-.}/tests/fuzz/corpus/wa-usync"
