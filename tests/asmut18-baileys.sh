#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: app state both ways between wachat (its UI in tmux) and
# unmodified Baileys with appStateMacVerification on, two companions of
# one wachat-sim account: wachat's mute, pin, star and archive arrive in
# Baileys as the same actions; Baileys' chatModify mute, pin, markRead
# and archive show in wachat's chat list
# (tests/sim-interop/wachat-appstate-baileys.mjs).  TAP.
. "${top_srcdir:-.}/tests/sim-lib.sh"
. "${top_srcdir:-.}/tests/sim-interop/node.sh"
need openssl tmux
test_cert
SIM_TLS_CERT=$tmp/cert.pem SIM_TLS_KEY=$tmp/key.pem NODE_EXTRA_CA_CERTS=$tmp/cert.pem
export SIM_TLS_CERT SIM_TLS_KEY NODE_EXTRA_CA_CERTS
sim_node_tap wachat-appstate-baileys.mjs
finish_tap
