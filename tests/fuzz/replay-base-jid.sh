#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Replay the JID parser's fuzz corpus (make check; TAP).
exec "${top_builddir:-.}/tests/fuzz/replay-base-jid" "${top_srcdir:-.}/tests/fuzz/corpus/base-jid"
