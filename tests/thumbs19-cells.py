#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/thumbs19-cells.py CAPTURE MARK ROWS COLS LEFT RIGHT [BELOW]: read a
# tmux pane captured with `capture-pane -e -p` (SGR colours in it), find
# the line holding MARK (a media row's first line), and check the ROWS
# lines under it from MARK's column on: each of COLS cells is a half-block
# (U+2580, U+2584, U+2588) or a space whose visible colours (the
# foreground for the block's half, the background for the rest) are the
# 256-colour index LEFT in the cells of the left third and RIGHT in those
# of the right third; the line after them is no thumbnail (none of its
# cells has LEFT or RIGHT); with BELOW, that next line holds BELOW (the
# next message's header).  ROWS 0: the line under MARK has neither
# colour.  Exit 0 when all holds, else 1 with what was seen on stderr.
import sys
import unicodedata


def cells(line):
    """The line's cells: (char, fg, bg) for each column."""
    out, fg, bg, i = [], None, None, 0
    while i < len(line):
        c = line[i]
        if c == '\x1b' and i + 1 < len(line) and line[i + 1] == '[':
            j = i + 2
            while j < len(line) and not line[j].isalpha():
                j += 1
            if j < len(line) and line[j] == 'm':
                fg, bg = sgr(line[i + 2:j], fg, bg)
            i = j + 1
            continue
        w = 2 if unicodedata.east_asian_width(c) in 'WF' else 1
        if unicodedata.combining(c) or c in '\u200d\ufe0f':
            i += 1
            continue
        out.append((c, fg, bg))
        if w == 2:
            out.append(('\0', fg, bg))	# its second column
        i += 1
    return out


def sgr(params, fg, bg):
    p = [int(x) if x.isdigit() else 0 for x in params.split(';')] \
        if params else [0]
    k = 0
    while k < len(p):
        v = p[k]
        if v == 0:
            fg = bg = None
        elif v == 39:
            fg = None
        elif v == 49:
            bg = None
        elif v in (38, 48) and k + 2 < len(p) and p[k + 1] == 5:
            if v == 38:
                fg = p[k + 2]
            else:
                bg = p[k + 2]
            k += 2
        elif v in (38, 48) and k + 4 < len(p) and p[k + 1] == 2:
            k += 4
        elif 30 <= v <= 37:
            fg = v - 30
        elif 40 <= v <= 47:
            bg = v - 40
        elif 90 <= v <= 97:
            fg = v - 90 + 8
        elif 100 <= v <= 107:
            bg = v - 100 + 8
        k += 1
    return fg, bg


def visible(cell):
    """The colours of a cell's top and bottom halves."""
    c, fg, bg = cell
    if c == '\u2580':
        return fg, bg
    if c == '\u2584':
        return bg, fg
    if c == '\u2588':
        return fg, fg
    if c == ' ':
        return bg, bg
    return None


def main():
    path, mark, rows, cols, left, right = sys.argv[1:7]
    below = sys.argv[7] if len(sys.argv) > 7 else None
    rows, cols, left, right = int(rows), int(cols), int(left), int(right)
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    cols_of = [[c for c, _, _ in cells(ln)] for ln in lines]
    plain = [''.join(c for c in cs if c != '\0') for cs in cols_of]
    at = [k for k, ln in enumerate(plain) if mark in ln]
    if not at:
        sys.stderr.write('no line holds %r\n' % mark)
        return 1
    y = at[-1]
    # the column of the mark's first character
    x = [k for k, c in enumerate(cols_of[y]) if c != '\0'][
        plain[y].index(mark)]
    for r in range(rows):
        row = cells(lines[y + 1 + r])[x:x + cols]
        for k in range(cols):
            if cols // 3 <= k < cols - cols // 3:
                continue	# the middle: the split blends
            want = left if k < cols // 3 else right
            v = visible(row[k]) if k < len(row) else None
            if v != (want, want):
                sys.stderr.write('row %d cell %d: %r shows %r, not %d\n'
                                 % (r, k, row[k] if k < len(row) else None,
                                    v, want))
                return 1
    nxt = cells(lines[y + 1 + rows]) if y + 1 + rows < len(lines) else []
    if any(fg in (left, right) or bg in (left, right) for _, fg, bg in nxt):
        sys.stderr.write('line %d under the thumbnail has its colours: %r\n'
                         % (rows, plain[y + 1 + rows]))
        return 1
    if below is not None and below not in plain[y + 1 + rows]:
        sys.stderr.write('line %d under the thumbnail is %r, not %r\n'
                         % (rows, plain[y + 1 + rows], below))
        return 1
    return 0


sys.exit(main())
