#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the fuzz corpus of pairing's device identity and phone-code unwrap (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-pair" "${top_srcdir:-.}/tests/fuzz/corpus/wa-pair"
