#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Damage a database file for the tests of tests/dbhealth.mk.
#   db-flip.py flip FILE OFFSET [LEN]   XOR LEN bytes (default 4) at OFFSET
#                                       with 0xff
#   db-flip.py offsets FILE SEED N      N offsets to damage, one a line:
#                                       the header, the schema page, the
#                                       device row's keys and JID (found
#                                       by their bytes), each table's root
#                                       page, then seeded random ones
#   db-flip.py find FILE HEX            the offset of the bytes HEX
#   db-flip.py put FILE OFFSET HEX      write the bytes HEX at OFFSET
import random
import sys


def flip(path, off, n):
    with open(path, 'r+b') as f:
        f.seek(off)
        b = bytearray(f.read(n))
        f.seek(off)
        f.write(bytes(x ^ 0xff for x in b))


def offsets(path, seed, n, extra):
    data = open(path, 'rb').read()
    page = int.from_bytes(data[16:18], 'big') or 65536
    out = [0, 28, 60, 100, 2000, page - 200]
    for h in extra:
        i = data.find(bytes.fromhex(h))
        if i >= 0:
            out.append(i + 3)
    for root in range(2, 8):
        if root * page <= len(data):
            out.append((root - 1) * page)
    rng = random.Random(seed)
    while len(out) < n:
        out.append(rng.randrange(0, len(data) - 4))
    return out[:n]


def main():
    cmd = sys.argv[1]
    if cmd == 'flip':
        flip(sys.argv[2], int(sys.argv[3]),
             int(sys.argv[4]) if len(sys.argv) > 4 else 4)
    elif cmd == 'offsets':
        for o in offsets(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                         sys.argv[5:]):
            print(o)
    elif cmd == 'put':
        with open(sys.argv[2], 'r+b') as f:
            f.seek(int(sys.argv[3]))
            f.write(bytes.fromhex(sys.argv[4]))
    elif cmd == 'find':
        print(open(sys.argv[2], 'rb').read().find(bytes.fromhex(sys.argv[3])))
    else:
        sys.exit('db-flip.py: flip, offsets, find or put')


main()
