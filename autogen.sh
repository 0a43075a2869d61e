#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Generate configure and the Makefile templates (needs autoconf, automake,
# autopoint and gettext).
set -e
cd "$(dirname "$0")"
autoreconf -fi
# automake does not copy the TAP driver by itself.
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
