#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The demo: set everything up, build, and show what wachat can do so far.
# Until the curses screen exists (the demo of linking by QR comes with
# it), the demo shows the wire codec reading WhatsApp frames: the
# keepalive iq of protocol.md 4.7 and a message to a LID, each decoded from
# its hex bytes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh tools/setup.sh >/dev/null
w=build/wachat
echo "== $($w --version | head -n 1): the binary node codec"
echo
echo "A keepalive frame (hex 00f8091908ff0461b127a11657042911fa0003):"
$w --decode-frame 00f8091908ff0461b127a11657042911fa0003
echo
echo "A message to a LID, device 0, with an encrypted payload:"
$w --decode-frame 00f8081311faff88123456789012345f7608fb0b3eb0abcdef0123456789ab0438f801f8061d5145044dfc02330a
echo
echo "A frame cut short is refused, naming the byte where the field that runs"
echo "past its end begins (here the node's header, which promises four attributes):"
$w --decode-frame 00f8091908ff0461b127 || true
echo
echo "wachat links and connects (try it against the local server: tests/sim/README.md);"
echo "the demo of linking on the first screen comes with the curses UI."
echo "Run every test with: sh tools/test.sh"
