#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18: does wachat's chat list (`wachat chats --json`, one object a
# line) say what the phone's app state (wachat-sim's `ctl appstate PN`,
# JSON) says?  Every 1:1 chat wachat lists is one the phone's address
# book names, by that address-book name (not the push name);
# for every chat the phone mutes, pins or archives, wachat's muted,
# pinned and archived are the phone's (a mute whose end has passed is
# none).  Usage: appsync18-compare.py CHATS.jsonl APPSTATE.json NOW_MS
# [MIN_NAMED]: exit 0 when all agree and at least MIN_NAMED (default 1)
# chats were named by the address book; else each difference on stdout,
# exit 1.
import json
import sys

chats = {}
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if line.startswith("{"):
        c = json.loads(line)
        if c.get("type") == "chat":
            chats[c["jid"]] = c
state = json.load(open(sys.argv[2], encoding="utf-8"))
now = int(sys.argv[3])
min_named = int(sys.argv[4]) if len(sys.argv) > 4 else 1

want = {}       # jid -> {"name": ..., "muted": ..., ...}
for coll in state["collections"]:
    for rec in coll.get("actions", []):
        a = rec.get("action", {})
        jid = a.get("chat")
        if not jid:
            continue
        w = want.setdefault(jid, {})
        kind = a.get("kind")
        if kind == "contact" and a.get("full_name"):
            w["name"] = a["full_name"]
        elif kind == "mute":
            end = a.get("mute_end_ms", 0)
            w["muted"] = bool(a.get("flag")) and (end == -1 or end > now)
        elif kind == "pin":
            w["pinned"] = bool(a.get("flag"))
        elif kind == "archive":
            w["archived"] = bool(a.get("flag"))

bad = []
named = 0
for jid in sorted(chats):
    if jid.endswith("@s.whatsapp.net") and "name" not in want.get(jid, {}):
        bad.append(f"{jid} ({chats[jid]['name']!r}) is not in the phone's "
                   "address book")
for jid, w in sorted(want.items()):
    c = chats.get(jid)
    flags = [k for k in ("muted", "pinned", "archived") if k in w and w[k]]
    if c is None:
        if flags:
            bad.append(f"{jid}: the phone has it {'/'.join(flags)}, "
                       "wachat lists no such chat")
        continue
    if "name" in w:
        if c["name"] != w["name"]:
            bad.append(f"{jid}: wachat names it {c['name']!r}, the phone's "
                       f"address book {w['name']!r}")
        else:
            named += 1
    for k in ("muted", "pinned", "archived"):
        if k in w and bool(c[k]) != w[k]:
            bad.append(f"{jid}: {k} is {c[k]} in wachat, {w[k]} on the "
                       "phone")
if named < min_named:
    bad.append(f"only {named} chats named by the address book "
               f"(want {min_named})")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
