#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the fuzz corpus of the server certificate chain (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-wa-cert" "${top_srcdir:-.}/tests/fuzz/corpus/wa-cert"
