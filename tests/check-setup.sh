#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/setup.sh, run on a copy of it beside a stand-in tree, with
# stand-ins for apt-get, dpkg-query, node, npm, locale, configure and make
# on the PATH that record how they are called: --demo (what tools/demo.sh
# runs) installs only the build packages and openssl, never npm, and runs
# no node and no npm; without --demo it installs the tests' tools too
# (tmux, procps, zbar-tools, sqlite3, curl, python3, locales), finds node
# and runs npm ci; every step's output goes to build/setup.log, not the
# terminal, and a failed step shows its name, its exit status and its
# last 30 lines, not the whole output.  TAP.
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wachat-setup-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; return 1; fi; }
diag() { [ -f "$1" ] && sed 's/^/# /' "$1"; }

# The stand-in tree: tools/setup.sh, a configure newer than its inputs,
# tests/interop without node_modules.
tree() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/tools" "$tmp/t/tests/interop"
	cp "$src/tools/setup.sh" "$tmp/t/tools/"
	: >"$tmp/t/configure.ac"
	: >"$tmp/t/Makefile.am"
	: >"$tmp/t/tests/interop/package-lock.json"
	touch -d '2000-01-01' "$tmp/t/configure.ac" "$tmp/t/Makefile.am"
	printf '#!/bin/sh\necho "configure $*" >>"%s/calls"\necho "checking for cc... cc"\n: >Makefile\n' \
	    "$tmp" >"$tmp/t/configure"
	chmod +x "$tmp/t/configure"
}

# The stand-ins: each records its arguments in $tmp/calls.
bin=$tmp/bin
mkdir -p "$bin"
for c in apt-get npm node locale-gen; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$c" "$tmp" >"$bin/$c"
done
# node: version 20, and its path.
printf '#!/bin/sh\necho "node $*" >>"%s/calls"\ncase "$*" in *versions*) echo 20 ;; --version) echo v20.0.0 ;; esac\n' \
    "$tmp" >"$bin/node"
# dpkg-query: nothing is installed.
printf '#!/bin/sh\nexit 1\n' >"$bin/dpkg-query"
# locale -a: de_DE.UTF-8 is missing.
printf '#!/bin/sh\necho C.UTF-8\n' >"$bin/locale"
# Not root: everything for root goes through sudo, whose stand-in runs
# only apt-get (the stand-in, through env) and records the rest (sed,
# tee, locale-gen on /etc/locale.gen), so that the machine running the
# test is never changed.
printf '#!/bin/sh\necho 1000\n' >"$bin/id"
printf '#!/bin/sh\ncase "$1" in env) exec "$@" ;; esac\necho "sudo $*" >>"%s/calls"\n' \
    "$tmp" >"$bin/sudo"
# make: 100 numbered lines, then the exit status in $tmp/make-status.
printf '#!/bin/sh\necho "make $*" >>"%s/calls"\ni=1; while [ $i -le 100 ]; do echo "make line $i"; i=$((i + 1)); done\nexit $(cat "%s/make-status" 2>/dev/null || echo 0)\n' \
    "$tmp" "$tmp" >"$bin/make"
chmod +x "$bin"/*
run_setup() {
	: >"$tmp/calls"
	(cd "$tmp/t" && PATH="$bin:$PATH" HOME="$tmp/home" \
	    sh tools/setup.sh "$@" >"$tmp/out" 2>"$tmp/err")
}

installed() {	# installed: the packages apt-get was asked to install
	sed -n 's/^apt-get install .*--no-install-recommends //p; s/^apt-get install -y -q \([a-z]*\)$/\1/p' \
	    "$tmp/calls" | tr ' ' '\n' | grep . | sort -u
}

# --- --demo
tree
run_setup --demo
st=$?
check "setup.sh --demo succeeds with every package missing (status $st)" [ "$st" -eq 0 ] ||
    { diag "$tmp/err"; diag "$tmp/calls"; }
installed >"$tmp/demo-pkgs"
check "... it installs the build packages and openssl" sh -c \
    "grep -qx build-essential '$tmp/demo-pkgs' && grep -qx libcmocka-dev '$tmp/demo-pkgs' &&
    grep -qx openssl '$tmp/demo-pkgs'" || diag "$tmp/demo-pkgs"
check "... not npm, nodejs nor a test tool (tmux, procps, zbar-tools, sqlite3, curl, python3, clang, locales)" \
    sh -c "! grep -Ex 'npm|nodejs|tmux|procps|zbar-tools|sqlite3|curl|python3|clang|locales' '$tmp/demo-pkgs'" ||
    diag "$tmp/demo-pkgs"
check "... runs neither node nor npm, nor locale-gen" \
    sh -c "! grep -Eq '^(node|npm|(sudo )?locale-gen)( |\$)' '$tmp/calls'" || diag "$tmp/calls"
check "... configures and builds" sh -c \
    "grep -q '^configure' '$tmp/calls' && grep -q '^make' '$tmp/calls'"
check "... prints no NODE= line" sh -c "! grep -q '^NODE=' '$tmp/out'"
check "... the commands' output goes to build/setup.log, not the terminal" sh -c \
    "grep -q '^make line 100$' '$tmp/t/build/setup.log' &&
    ! grep -q 'make line\|checking for' '$tmp/err' '$tmp/out'" || diag "$tmp/err"
check "... the terminal gets one line a step" sh -c \
    "grep -q '^setup: installing Debian packages:' '$tmp/err' &&
    grep -q '^setup: building in build/' '$tmp/err'" || diag "$tmp/err"

# --- the tests' set-up
tree
run_setup
st=$?
check "setup.sh without --demo succeeds (status $st)" [ "$st" -eq 0 ] ||
    { diag "$tmp/err"; diag "$tmp/calls"; }
installed >"$tmp/test-pkgs"
check "... it installs the tests' tools too" sh -c \
    "for p in tmux procps zbar-tools sqlite3 curl python3 locales openssl; do
    grep -qx \$p '$tmp/test-pkgs' || exit 1; done" || diag "$tmp/test-pkgs"
check "... finds the node on the PATH (version 20) and installs no npm" sh -c \
    "grep -q '^node ' '$tmp/calls' && ! grep -qx npm '$tmp/test-pkgs' &&
    grep -qx 'NODE=$bin/node' '$tmp/out'" || { diag "$tmp/calls"; diag "$tmp/out"; }
check "... runs npm ci for the interop packages" grep -q '^npm ci' "$tmp/calls"
check "... generates the de_DE.UTF-8 locale" grep -q '^sudo locale-gen' "$tmp/calls"
check "... configures with that node" grep -q "^configure NODE=$bin/node" "$tmp/calls"

# --- a step that fails
tree
echo 2 >"$tmp/make-status"
run_setup --demo
st=$?
rm -f "$tmp/make-status"
check "a failing make fails the set-up (status $st)" [ "$st" -eq 1 ]
check "... the terminal names the step and its exit status" \
    grep -q '^setup: building in build/ (make): failed (exit 2)' "$tmp/err" ||
    diag "$tmp/err"
check "... and shows its last 30 lines, not the first 70" sh -c \
    "grep -q '^  make line 71$' '$tmp/err' && grep -q '^  make line 100$' '$tmp/err' &&
    ! grep -q 'make line 70$' '$tmp/err'" || diag "$tmp/err"
check "... and where the whole output is" \
    grep -q "build/setup.log" "$tmp/err"
check "... which holds it all" grep -q '^make line 1$' "$tmp/t/build/setup.log"
echo "1..$n"
[ "$failed" -eq 0 ]
