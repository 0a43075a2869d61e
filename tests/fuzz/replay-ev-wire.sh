#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the event wire decoder's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-ev-wire" "${top_srcdir:-.}/tests/fuzz/corpus/ev-wire"
