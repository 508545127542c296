#!/bin/sh
# SPDX-License-Identifier: ISC
# sizes.sh -- the size rules of issue 14 (TAP): no source file over 600
# lines, no C function over 60.
#
# A function is what OpenBSD style makes easy to find: its name at the
# start of a line, "(" after it, and its body from a "{" alone on a line
# to the next "}" alone on a line; its length is that body's.  The
# self-checks feed the same awk a long function and a short one.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
MAX_FILE=600
MAX_FUNC=60

# long_functions FILE...: "file:line: name, N lines" for each too long
long_functions() {
	awk -v max="$MAX_FUNC" '
	    FNR == 1 { name = ""; start = 0 }
	    /^[a-z_][a-z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name) }
	    /^\{$/ && name != "" { start = FNR }
	    /^\}$/ && start { n = FNR - start + 1
		if (n > max) printf "%s:%d: %s, %d lines\n", FILENAME,
		    start, name, n
		start = 0; name = "" }' "$@"
}

cd "$srcdir" || exit 1
files=$(find src tests bench -type f \( -name '*.c' -o -name '*.h' -o \
    -name '*.py' -o -name '*.sh' \) ! -path 'tests/fuzz/corpus/*' | sort)
cfiles=$(printf '%s\n' $files | grep '\.c$')
nfiles=$(printf '%s\n' $files | wc -l)
echo "1..4"

big=$(wc -l $files | awk -v max="$MAX_FILE" '$2 != "total" && $1 > max {
    print $2 ": " $1 " lines" }')
if [ -z "$big" ]; then
	ok "no file of src, tests or bench over $MAX_FILE lines ($nfiles files)"
else
	notok "no file of src, tests or bench over $MAX_FILE lines" "$big"
fi

long=$(long_functions $cfiles)
if [ -z "$long" ]; then
	ok "no C function over $MAX_FUNC lines"
else
	notok "no C function over $MAX_FUNC lines" "$long"
fi

# Self-checks: a 61-line body is reported, a 60-line one is not.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sizes.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
body() {
	printf 'static int\n%s(void)\n{\n' "$1"
	i=2
	while [ $i -lt "$2" ]; do
		echo "	x++;"
		i=$((i + 1))
	done
	printf '}\n'
}
body too_long 61 >"$tmp/a.c"
body fits 60 >>"$tmp/a.c"
out=$(long_functions "$tmp/a.c")
case $out in
*too_long*) ok "a 61-line function is reported" ;;
*) notok "a 61-line function is reported" "$out" ;;
esac
case $out in
*fits*) notok "a 60-line function is not" "$out" ;;
*) ok "a 60-line function is not" ;;
esac
[ $fails -eq 0 ]
