#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Baileys reads the sim's profile and blocklist answers (issue 20): the
# picture's URL and its JPEG, the about text, the blocklist get and set
# (tests/sim-interop/baileys-profile.mjs), over TLS with a test
# certificate Node trusts.  TAP.  Needs openssl.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"

need openssl "${NODE:-node}"
test_cert
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS
sim_node_tap baileys-profile.mjs
finish_tap
