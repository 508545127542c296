#!/bin/sh
# SPDX-License-Identifier: ISC
# exports.sh -- libsudoku.so exports the API of sudoku.h and nothing
# else (TAP).
#
# nm -D --defined-only on the built library must show the functions
# sudoku.h declares, each with a symbol version of src/core/sudoku.map,
# and no other symbol but those version nodes; the map file, the header
# and sudoku(3) must name the same functions; the soname is the one the
# package is named after (libsudoku1); sudokud and sudokuc link the
# core statically (Makefile.am says why).
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
builddir=${top_builddir:-.}
# same NAME A B: the word lists A and B are equal as sets
same() {
	a=$(printf '%s\n' $2 | sort -u) b=$(printf '%s\n' $3 | sort -u)
	if [ "$a" = "$b" ]; then
		ok "$1"
	else
		notok "$1" "only in the first: $(echo $(printf '%s\n' "$a" "$b" "$b" | sort | uniq -u))
only in the second: $(echo $(printf '%s\n' "$b" "$a" "$a" | sort | uniq -u))"
	fi
}

la=$builddir/src/core/libsudoku.la
if [ ! -f "$la" ]; then
	echo "1..0 # SKIP $la not built"
	exit 0
fi
dlname=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la")
if [ -z "$dlname" ]; then
	echo "1..0 # SKIP no shared library (configure --disable-shared)"
	exit 0
fi
so=$builddir/src/core/.libs/$dlname
for t in nm readelf; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "1..0 # SKIP $t not installed (binutils)"
		exit 0
	fi
done

echo "1..8"

# The functions of sudoku.h: its declarations once the comments are gone.
api=$(${CC:-cc} -E -P "$srcdir/src/core/sudoku.h" |
    grep -o '\bsudoku_[a-z0-9_]*[[:space:]]*(' | tr -d '( \t' | sort -u)
[ "$(echo "$api" | wc -l)" -ge 20 ] &&
    ok "sudoku.h declares $(echo "$api" | wc -l) functions" ||
    notok "sudoku.h declares its functions" "$api"

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libsudoku.so.1 ] && ok "soname libsudoku.so.1" ||
    notok "soname libsudoku.so.1" "readelf -d $so: SONAME [$soname]"

# name@@VERSION or name@VERSION (T), and the version nodes (A)
syms=$(nm -D --defined-only "$so" | awk '{ print $3 }')
bad=$(printf '%s\n' "$syms" | grep -v '^sudoku_[a-z0-9_]*@@\{0,1\}SUDOKU_[0-9.]*$' |
    grep -v '^SUDOKU_[0-9.]*$')
[ -z "$bad" ] && ok "only sudoku_* is exported, each with a symbol version" ||
    notok "only sudoku_* is exported, each with a symbol version" "$bad"
exported=$(printf '%s\n' "$syms" | sed -n 's/^\(sudoku_[a-z0-9_]*\)@.*/\1/p')
same "exported = declared in sudoku.h" "$exported" "$api"

# The names under "global:" in the map, each "name;"
mapped=$(sed -n 's/^[[:space:]]*\(sudoku_[a-z0-9_]*\);.*/\1/p' \
    "$srcdir/src/core/sudoku.map")
same "src/core/sudoku.map lists the functions of sudoku.h" "$mapped" "$api"

man=$srcdir/man/sudoku.3.in
same "sudoku(3) names each function in NAME" \
    "$(sed -n 's/^\.Nm \(sudoku_[a-z0-9_]*\).*/\1/p' "$man")" "$api"
same "sudoku(3) shows each function in SYNOPSIS" \
    "$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /s/^\.Fn \(sudoku_[a-z0-9_]*\) .*/\1/p' "$man")" "$api"

needed=""
for p in src/sudokud src/sudokuc; do
	[ -f "$builddir/$p" ] || continue
	readelf -d "$builddir/$p" | grep -q 'NEEDED.*libsudoku' &&
	    needed="$needed $p"
done
[ -z "$needed" ] && ok "sudokud and sudokuc link libsudoku statically" ||
    notok "sudokud and sudokuc link libsudoku statically" "dynamically:$needed"
