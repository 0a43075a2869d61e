#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the send side: read the sim's app state of an account (ctl
# appstate PN, a JSON file) for tests/asmut18-*.sh.
#
#   asmut18-state.py STATE version COLL
#       print collection COLL's version
#   asmut18-state.py STATE action COLL INDEX_JSON KIND FLAG [MIN_VERSION]
#       exit 0 when COLL's live record of INDEX_JSON (as the index JSON
#       array, e.g. '["mute","1555@s.whatsapp.net"]') came from a
#       companion ("device N", not the phone), decodes as action KIND with
#       flag FLAG (true/false; "-": a kind without one), at a version
#       >= MIN_VERSION; else 1, saying
#       what is there
#   asmut18-state.py STATE mute-end COLL INDEX_JSON
#       print that record's mute_end_ms
#   asmut18-state.py STATE count COLL BY_PREFIX
#       print how many patches of COLL came from "BY_PREFIX..."
import json
import sys


def coll(state, name):
    for c in state["collections"]:
        if c["name"] == name:
            return c
    sys.exit("no collection " + name)


def record(c, index):
    want = json.loads(index)
    for r in c["actions"]:
        if json.loads(r["index"]) == want:
            return r
    return None


def main():
    state = json.load(open(sys.argv[1]))
    what = sys.argv[2]
    c = coll(state, sys.argv[3])
    if what == "version":
        print(c["version"])
        return 0
    if what == "count":
        print(sum(1 for p in c["patches"] if p["by"].startswith(sys.argv[4])))
        return 0
    r = record(c, sys.argv[4])
    if what == "mute-end":
        print(r["action"]["mute_end_ms"] if r else "none")
        return 0
    kind, flag = sys.argv[5], {"true": True, "false": False}.get(sys.argv[6])
    minv = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    if r is None:
        print("no record of " + sys.argv[4])
        return 1
    a = r.get("action") or {}
    ok = (r["by"].startswith("device") and a.get("kind") == kind and
          a.get("flag") == flag and r["version"] >= minv)
    if not ok:
        print(json.dumps(r))
    return 0 if ok else 1


sys.exit(main())
