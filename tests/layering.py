#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/layering.py -- the folders are the layers (style.md 3.1).

Two kinds of check, each printed as TAP by tests/check-layering.sh:

  includes SRCDIR         every #include in base/, proto/, store/, ui/ and
                          src/ names a folder the including folder may use,
                          and no folder includes a library header it must
                          not (curses outside ui/, SQLite outside store/,
                          libuv in ui/ or store/, ...).
  symbols BUILDDIR        nm of each static library: every symbol it takes
                          from another of our libraries comes from a layer
                          below it; proto/ references no curses, SQLite,
                          store_ or ui_ symbols, store/ no wa_ ones, ui/ no
                          libuv, socket, SQLite, wa_ or store_ ones, base/
                          nothing outside libc; and no two object files of
                          one library call each other in a circle.

Each prints one line per violation and exits 1 when there is any, 0 when
there is none, 2 when a tool or a file it needs is missing.
"""
import os
import re
import subprocess
import sys

# Which folders each folder may include (besides itself, and besides the
# generated protobuf headers, which are proto/'s).
LAYERS = {
    "base": {"base"},
    "proto": {"base", "proto"},
    "store": {"base", "store"},
    "ui": {"base", "ui"},
    "src": {"base", "proto", "store", "ui", "src"},
}
# Library headers a folder must not include (a prefix of the path written
# between < >).
FORBIDDEN_SYS = {
    "base": ["curses", "ncurses", "uv.h", "uv/", "sqlite3", "libwebsockets",
             "sodium", "signal/", "openssl/", "zlib.h", "libdeflate",
             "curl/", "json-c/", "ini.h", "qrencode", "protobuf-c/"],
    "proto": ["curses", "ncurses", "sqlite3", "qrencode", "ini.h"],
    "store": ["curses", "ncurses", "uv.h", "uv/", "libwebsockets", "signal/",
              "qrencode", "openssl/", "curl/", "protobuf-c/"],
    "ui": ["uv.h", "uv/", "sqlite3", "libwebsockets", "signal/", "openssl/",
           "curl/", "sodium", "sys/socket.h", "netinet/", "protobuf-c/",
           "zlib.h", "libdeflate"],
    "src": [],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def check_includes(srcdir):
    bad = []
    for folder in LAYERS:
        top = os.path.join(srcdir, folder)
        if not os.path.isdir(top):
            bad.append("%s/: the folder is missing" % folder)
            continue
        for name in sorted(os.listdir(top)):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(top, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m is None:
                        continue
                    where = "%s/%s:%d" % (folder, name, lineno)
                    kind, inc = m.group(1), m.group(2)
                    if kind == "<":
                        for p in FORBIDDEN_SYS[folder]:
                            if inc.startswith(p):
                                bad.append("%s: <%s> is not for %s/" %
                                           (where, inc, folder))
                        continue
                    if inc == "config.h":
                        continue
                    if inc.endswith(".pb-c.h"):
                        if "proto" not in LAYERS[folder]:
                            bad.append('%s: "%s" is proto/\'s (generated), '
                                       "not for %s/" % (where, inc, folder))
                        continue
                    if "/" not in inc:
                        bad.append('%s: "%s" names no folder (write "%s/%s")'
                                   % (where, inc, folder, inc))
                        continue
                    to = inc.split("/", 1)[0]
                    if to not in LAYERS:
                        bad.append('%s: "%s" is outside the layers' %
                                   (where, inc))
                    elif to not in LAYERS[folder]:
                        bad.append('%s: "%s": %s/ must not include %s/ '
                                   "(a layer above or beside it)" %
                                   (where, inc, folder, to))
    return bad


# The static library of each folder, and the libraries of ours whose
# symbols it may use.  libroot.a and libapp.a are the composition root.
LIBS = {
    "libbase.a": ("base", set()),
    "libproto.a": ("proto", {"libbase.a"}),
    "libstore.a": ("store", {"libbase.a"}),
    "libui.a": ("ui", {"libbase.a"}),
    "libapp.a": ("src", {"libbase.a", "libproto.a", "libstore.a"}),
    "libroot.a": ("src", {"libbase.a", "libproto.a", "libstore.a",
                          "libui.a", "libapp.a"}),
}
# Symbols the compiler or a sanitizer adds; they say nothing of layers.
TOOLCHAIN = re.compile(r"^(__asan_|__ubsan_|__sanitizer_|__lsan_|__msan_|"
                       r"__tsan_|__sancov_|__gcov_|__llvm_|_GLOBAL_OFFSET_TABLE_$|"
                       r"__stack_chk_|__cxa_|_Unwind_|__gmon_start__$|"
                       r"__fprintf_chk$|__printf_chk$|__snprintf_chk$|"
                       r"__vsnprintf_chk$|__memcpy_chk$|__memset_chk$|"
                       r"__memmove_chk$|__strcpy_chk$|__strcat_chk$|"
                       r"__vfprintf_chk$|__sprintf_chk$|__explicit_bzero_chk$|"
                       r"__read_chk$|__poll_chk$|__fdelt_chk$|__longjmp_chk$|"
                       r"__isoc99_|__isoc23_|__ctype_|__errno_location$|"
                       r"__assert_fail$|__libc_)")


def nm(args):
    try:
        out = subprocess.run(["nm"] + args, check=True, capture_output=True,
                             text=True).stdout
    except FileNotFoundError:
        sys.stderr.write("nm (binutils) is not installed\n")
        sys.exit(2)
    except subprocess.CalledProcessError as e:
        sys.stderr.write("nm %s failed: %s\n" % (" ".join(args), e.stderr))
        sys.exit(2)
    return out


def objects(lib):
    """{object: (defined set, undefined set)} of a static library."""
    objs = {}
    for line in nm(["-A", lib]).splitlines():
        # "lib.a:obj.o:0000 T name" or "lib.a:obj.o:         U name"
        parts = line.split(":")
        if len(parts) < 3:
            continue
        obj = parts[1]
        fields = parts[-1].split()
        if len(fields) < 2:
            continue
        typ, name = fields[-2], fields[-1]
        d, u = objs.setdefault(obj, (set(), set()))
        if typ == "U":
            u.add(name)
        elif typ in "TDBRCVWGSi" and typ.isupper():
            d.add(name)
    return objs


def shared_defined(soname):
    """The dynamic symbols a system library defines (soname such as
    libc.so.6), found where the compiler's linker finds it."""
    cc = os.environ.get("CC", "cc").split()[0]
    try:
        path = subprocess.run([cc, "-print-file-name=" + soname],
                              check=True, capture_output=True,
                              text=True).stdout.strip()
    except (FileNotFoundError, subprocess.CalledProcessError):
        path = soname
    if not os.path.isabs(path) or not os.path.exists(path):
        sys.stderr.write("%s not found (by %s -print-file-name)\n" %
                         (soname, cc))
        sys.exit(2)
    syms = set()
    for line in nm(["-D", "--defined-only", path]).splitlines():
        f = line.split()
        if f:
            syms.add(f[-1].split("@")[0])
    return syms


def cycles(graph):
    """Every strongly connected component of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_symbols(builddir):
    bad = []
    libs = {}
    for lib in LIBS:
        path = os.path.join(builddir, lib)
        if not os.path.exists(path):
            sys.stderr.write("%s is not built (make %s)\n" % (path, lib))
            sys.exit(2)
        libs[lib] = objects(path)
    defined_by = {}
    for lib, objs in libs.items():
        for obj, (d, _) in objs.items():
            for s in d:
                defined_by.setdefault(s, set()).add(lib)
    libc = shared_defined("libc.so.6") | shared_defined("libm.so.6")
    curses = shared_defined("libncursesw.so.6") | \
        shared_defined("libtinfo.so.6")
    sqlite = shared_defined("libsqlite3.so.0")
    uv = shared_defined("libuv.so.1")
    sockets = {"socket", "connect", "bind", "listen", "accept", "accept4",
               "send", "recv", "sendto", "recvfrom", "sendmsg", "recvmsg",
               "getaddrinfo"}
    # What each folder's library must not reference (set, or prefix).
    rules = {
        "libproto.a": [("curses", curses), ("SQLite", sqlite),
                       ("store_", "store_"), ("ui_", "ui_")],
        "libstore.a": [("wa_", "wa_"), ("ui_", "ui_"), ("curses", curses),
                       ("libuv", uv)],
        "libui.a": [("libuv", uv), ("a socket", sockets), ("SQLite", sqlite),
                    ("wa_", "wa_"), ("store_", "store_")],
    }
    for lib, (folder, allowed) in LIBS.items():
        own = set()
        for d, _ in libs[lib].values():
            own |= d
        for obj, (d, u) in sorted(libs[lib].items()):
            for s in sorted(u - own):
                if TOOLCHAIN.match(s):
                    continue
                froms = defined_by.get(s, set()) - {lib}
                for other in sorted(froms - allowed):
                    bad.append("%s(%s) takes %s from %s: %s/ must not use "
                               "that layer" % (lib, obj, s, other, folder))
                if lib == "libbase.a" and not froms and s not in libc:
                    bad.append("libbase.a(%s) takes %s, which libc does not "
                               "define: base/ is libc only" % (obj, s))
                for what, rule in rules.get(lib, []):
                    hit = s.startswith(rule) if isinstance(rule, str) \
                        else s in rule
                    if hit:
                        bad.append("%s(%s) references %s (%s): not for %s/"
                                   % (lib, obj, s, what, folder))
            for s in sorted(d):
                for what, rule in rules.get(lib, []):
                    if isinstance(rule, str) and s.startswith(rule):
                        bad.append("%s(%s) defines %s: a %s name does not "
                                   "belong in %s/" % (lib, obj, s, what,
                                                      folder))
        # Calls between the objects of this library.
        who = {}
        for obj, (d, _) in libs[lib].items():
            for s in d:
                who.setdefault(s, set()).add(obj)
        graph = {}
        for obj, (_, u) in libs[lib].items():
            graph[obj] = set()
            for s in u:
                graph[obj] |= who.get(s, set()) - {obj}
        for comp in cycles(graph):
            bad.append("%s: a call circle between %s" % (lib, ", ".join(comp)))
    return bad


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("includes", "symbols"):
        sys.stderr.write("usage: layering.py includes SRCDIR | "
                         "symbols BUILDDIR\n")
        return 2
    bad = check_includes(sys.argv[2]) if sys.argv[1] == "includes" else \
        check_symbols(sys.argv[2])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
