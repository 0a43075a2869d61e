#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The wachat command as a user runs it: --decode-frame on real frames (hex
# in either case, from the argument or standard input), its errors and exit
# statuses, --version, --help's keys, stray arguments, a failed write;
# --pair-phone as people write numbers, --wa-version's form.  TAP.
w=${top_builddir:-.}/wachat
n=0
fails=0
echo "1..20"
check() {	# check DESCRIPTION WANT_STATUS WANT_OUTPUT COMMAND...
	desc=$1 want_status=$2 want=$3
	shift 3
	got=$("$@" 2>&1)
	status=$?
	n=$((n + 1))
	if [ "$status" -eq "$want_status" ] && [ "$got" = "$want" ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		echo "# status $status (want $want_status), output:"
		printf '%s\n' "$got" | sed 's/^/#   /'
		echo "# want:"
		printf '%s\n' "$want" | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
}
keepalive='<iq id="61.127-1" xmlns="w:p" type="get" to="@s.whatsapp.net"/>'
check "decodes the keepalive frame of protocol.md 4.7" 0 "$keepalive" \
	"$w" --decode-frame 00f8091908ff0461b127a11657042911fa0003
check "reads upper-case hex digits the same" 0 "$keepalive" \
	"$w" --decode-frame 00F8091908FF0461B127A11657042911FA0003
check "reads the hex from standard input, white space ignored" 0 "$keepalive" \
	sh -c "printf '00 f8 09 19 08 ff 04 61\nb1 27 a1 16 57 04 29 11 fa 00 03\n' | '$w' --decode-frame -"
check "decodes a message with a HEX_8 id, a LID and bytes" 0 \
'<message to="123456789012345@lid" id="3EB0ABCDEF0123456789AB" type="text">
  <enc v="2" type="msg">‹330a›</enc>
</message>' \
	"$w" --decode-frame 00f8081311faff881234567890123$(printf 45f)7608fb0b3eb0abcdef0123456789ab0438f801f8061d5145044dfc02330a
check "decodes a zlib-compressed frame" 0 "$keepalive" \
	"$w" --decode-frame 02789cfbc129c9f19f2571a3fa42b170164dc15f0ccc003cca05a8
check "escapes terminal controls in what it prints" 0 \
	'<m t="\x1b]52;c;SGk=\x07"/>' \
	"$w" --decode-frame 00f803fc016dfc0174fc0c1b5d35323b633b53476b3d07
check "names the byte of a truncated field, counting the flags byte" 1 \
	"wachat: cannot decode the frame: input ends inside a field (at byte 4)" \
	"$w" --decode-frame 00f80219fc05
check "names a bad hex digit by its position" 1 \
	"wachat: character 2 is not a hex digit" "$w" --decode-frame 0g
check "refuses an odd number of digits" 1 \
	"wachat: the hex digits do not make whole bytes (an odd count)" \
	"$w" --decode-frame 00f
check "refuses a stray argument" 1 "wachat: unexpected argument 'extra'" \
	sh -c "'$w' --decode-frame 00f80119 extra 2>&1 >/dev/null | head -n 1; '$w' --decode-frame 00f80119 extra >/dev/null 2>&1"
check "reports a failed write" 1 "wachat: cannot write the output" \
	sh -c "'$w' --version >/dev/full"
check "names its version and the protobuf-c it binds" 0 "wachat $(sed -n 's/^AC_INIT(\[wachat\], \[\([^]]*\)\].*/\1/p' "${top_srcdir:-.}/configure.ac")" \
	sh -c "'$w' --version | head -n 1"
check "--help names the screen's keys" 0 \
'  q, Ctrl-q           quit
  p                   before linking: type your phone number and get a code' \
	sh -c "'$w' --help | grep -E '^  (q, Ctrl-q|p)  '"
# A good number gets past its check to the settings: the bad setting that
# follows is what stops wachat (no connection is made).
bad_level="wachat: --log-level: not one of error, warn, info, debug"
bad_pn="wachat: --pair-phone: not a phone number (5 to 20 digits, country code first)"
check "--pair-phone takes +1 555 000 0001 (spaces ignored)" 1 "$bad_level" \
	"$w" --pair-phone "+1 555 000 0001" --log-level loud
check "--pair-phone takes +1 (555) 000-0001 (parentheses, dashes ignored)" 1 \
	"$bad_level" "$w" --pair-phone "+1 (555) 000-0001" --log-level loud
check "--pair-phone refuses 4 digits" 1 "$bad_pn" \
	"$w" --pair-phone "+1 555" --log-level loud
check "--pair-phone refuses 21 digits" 1 "$bad_pn" \
	"$w" --pair-phone "123456789012345678901" --log-level loud
check "--pair-phone refuses a number without its country code (0 first)" 1 \
	"$bad_pn" "$w" --pair-phone "0555 000 0001" --log-level loud
check "--wa-version refuses a version not of the form 2.3000.N" 1 \
	"wachat: --wa-version: not a version of the form 2.3000.1234567890" \
	"$w" --wa-version 2.2413.1

# One wachat per data dir: a second one started on it says so and stops.
tmp=$(mktemp -d) || exit 1
chmod 700 "$tmp"
HOME=$tmp XDG_CONFIG_HOME= XDG_DATA_HOME= XDG_STATE_HOME= \
    "$w" --url ws://127.0.0.1:9/ws/chat --data-dir "$tmp/d" \
    --log-file "$tmp/1.log" </dev/null >"$tmp/1.out" 2>&1 &
first=$!
# The first holds the data dir once it says it is connecting (its engine
# starts after the lock is taken); 60 s at most by the clock.
end=$(($(date +%s) + 60))
while ! grep -q '^connecting' "$tmp/1.out" 2>/dev/null &&
    [ "$(date +%s)" -lt "$end" ]; do
	sleep 0.1
done
HOME=$tmp XDG_CONFIG_HOME= XDG_DATA_HOME= XDG_STATE_HOME= \
    "$w" --url ws://127.0.0.1:9/ws/chat --data-dir "$tmp/d" \
    --log-file "$tmp/2.log" </dev/null >"$tmp/2.out" 2>&1
second=$?
alive=0
kill -0 $first 2>/dev/null && alive=1
check "a second wachat on a data dir in use says so once, with the first's pid, and stops (7), the first runs on" \
	0 "status 7, first alive 1: stopped: another wachat (pid $first) is running with the data dir $tmp/d" \
	echo "status $second, first alive $alive: $(cat "$tmp/2.out")"
kill $first 2>/dev/null
wait $first 2>/dev/null
rm -rf "$tmp"
exit $((fails != 0))
