#!/bin/sh
# SPDX-License-Identifier: ISC
# install.sh -- what "make install" puts in place, used as a user would
# (TAP).
#
# Installs the build into a DESTDIR, then compiles the program of
# sudoku(3)'s EXAMPLES against the installed sudoku.h and libsudoku
# with nothing but the flags of "pkg-config --cflags --libs sudoku"
# (PKG_CONFIG_SYSROOT_DIR maps the installed paths into the DESTDIR),
# runs it and compares its output with the one the page shows, the same
# compiled as C++; checks
# that the page, the completions, the sysusers.d entry and the units
# are installed where they belong; and that "make uninstall" leaves
# nothing behind.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
builddir=${top_builddir:-.}

for t in pkg-config make; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "1..0 # SKIP $t not installed"
		exit 0
	fi
done
if ! grep -q "^dlname='.*so" "$builddir/src/core/libsudoku.la" 2>/dev/null; then
	echo "1..0 # SKIP no shared libsudoku (configure --disable-shared)"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/install-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
builddir=$(cd "$builddir" && pwd)

echo "1..11"

# 1. make install into DESTDIR, apart from the make running this test.
if (cd "$builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make install DESTDIR="$dest") >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR=..."
else
	notok "make install DESTDIR=..." "$(tail -n 20 "$tmp/install.log")"
fi

# The installed sudoku.pc, through pkg-config's search path.
pcdir=$(find "$dest" -name sudoku.pc -path '*/pkgconfig/*' | head -n 1)
pcdir=${pcdir%/sudoku.pc}
export PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$dest"
export PKG_CONFIG_LIBDIR="$pcdir"
# (pkgconf puts the sysroot before a variable too: not wanted here)
var() { PKG_CONFIG_SYSROOT_DIR= pkg-config --variable="$1" sudoku; }

# 2. The library, its header and sudoku.pc, where sudoku.pc says.
libdir=$(var libdir) includedir=$(var includedir)
missing=""
for f in "$libdir/libsudoku.so" "$libdir/libsudoku.so.1" \
    "$includedir/sudoku.h" "$libdir/pkgconfig/sudoku.pc"; do
	[ -e "$dest$f" ] || missing="$missing $f"
done
[ -n "$pcdir" ] && [ -z "$missing" ] &&
    ok "libsudoku.so.1, sudoku.h and sudoku.pc installed" ||
    notok "libsudoku.so.1, sudoku.h and sudoku.pc installed" \
	"pkgconfig dir: $pcdir; missing:$missing"

# 3. The example of sudoku(3): the first literal display of EXAMPLES,
# mdoc's escapes undone.
man=$srcdir/man/sudoku.3.in
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$man" |
    sed -n '/^\.Bd -literal/,/^\.Ed/p' | sed -n '2,/^\.Ed/p' | sed '$d' |
    sed 's/\\e/\\/g; s/\\&//g' >"$tmp/example.c"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$man" |
    sed -n '/^\$ \.\/example$/,/^\.Ed/p' | sed '1d;$d' >"$tmp/expected"
if grep -q '^main(' "$tmp/example.c" && [ -s "$tmp/expected" ]; then
	ok "sudoku(3) has an example program and its output"
else
	notok "sudoku(3) has an example program and its output"
fi

# 4. Compiled with pkg-config's flags for the header and the library,
# nothing else but strict C11 warnings and the build's own compiler,
# CFLAGS and LDFLAGS (a sanitizer build's library needs its runtime).
flags=$(pkg-config --cflags --libs sudoku)
mkvar() { sed -n "s/^$1 = //p" "$builddir/Makefile"; }
cc=$(mkvar CC) cflags=$(mkvar CFLAGS) ldflags=$(mkvar LDFLAGS)
if (cd "$tmp" && ${cc:-cc} $cflags -std=c11 -pedantic -Wall -Wextra \
    -Werror -o example example.c $flags $ldflags) >"$tmp/cc.log" 2>&1; then
	ok "the example compiles with pkg-config --cflags --libs sudoku only"
else
	notok "the example compiles with pkg-config --cflags --libs sudoku only" \
	    "${cc:-cc} $cflags ... $flags $ldflags
$(cat "$tmp/cc.log")"
fi

# 5. It runs against the installed library and prints what the page shows.
LD_LIBRARY_PATH="$dest$libdir" "$tmp/example" >"$tmp/got" 2>&1
if cmp -s "$tmp/got" "$tmp/expected"; then
	ok "the example prints what sudoku(3) shows"
else
	notok "the example prints what sudoku(3) shows" \
	    "$(diff "$tmp/expected" "$tmp/got")"
fi

# 6. ... linked dynamically, to the installed libsudoku.so.1.
lib=$(LD_LIBRARY_PATH="$dest$libdir" ldd "$tmp/example" 2>/dev/null |
    sed -n 's/.*libsudoku\.so\.1 => \([^ ]*\) .*/\1/p')
[ "$lib" = "$dest$libdir/libsudoku.so.1" ] &&
    ok "the example uses the installed libsudoku.so.1" ||
    notok "the example uses the installed libsudoku.so.1" "ldd: '$lib'"

# 6b. The same program is C++ too: sudoku.h has C linkage and no C-only
# syntax for C++ (issue 23.4).  Of the build's flags, only the
# sanitizers' (the library may need their runtime).
cxx=$(command -v "${CXX:-g++}" || command -v c++)
san=$(printf '%s\n' $cflags $ldflags | grep -E '^-fsanitize|^-fno-sanitize' |
    tr '\n' ' ')
cp "$tmp/example.c" "$tmp/example.cc"
if [ -n "$cxx" ] && (cd "$tmp" && $cxx $san -std=c++11 -pedantic -Wall \
    -Wextra -Werror -o example++ example.cc $flags) >"$tmp/cxx.log" 2>&1; then
	ok "the example compiles as C++11 with pkg-config's flags only"
else
	notok "the example compiles as C++11 with pkg-config's flags only" \
	    "${cxx:-no C++ compiler (scripts/install-deps test)} $san ... $flags
$(cat "$tmp/cxx.log" 2>/dev/null)"
fi
LD_LIBRARY_PATH="$dest$libdir" "$tmp/example++" >"$tmp/got++" 2>&1
if cmp -s "$tmp/got++" "$tmp/expected"; then
	ok "the C++ example prints what sudoku(3) shows"
else
	notok "the C++ example prints what sudoku(3) shows" \
	    "$(diff "$tmp/expected" "$tmp/got++")"
fi

# 7. The pages, the units, the sysusers.d entry, the completions, the
# examples that sudokud(8) and doc/scaling.md point to (issue 23.7).
missing=""
for f in man3/sudoku.3 man8/sudokud.8 man1/sudokuc.1 \
    systemd/system/sudokud.service systemd/system/sudokud.socket \
    sysusers.d/sudokud.conf doc/sudokud/scaling.md \
    doc/sudokud/examples/sudokud.conf \
    doc/sudokud/examples/haproxy/sudokud.cfg \
    doc/sudokud/examples/prometheus/prometheus.yml \
    doc/sudokud/examples/prometheus/sudokud-rules.yml \
    doc/sudokud/examples/kubernetes/sudokud.yaml; do
	[ -n "$(find "$dest" -path "*/$f")" ] || missing="$missing $f"
done
bcdir=$(sed -n 's/^bashcompletiondir = //p' "$builddir/Makefile")
if [ -n "$bcdir" ]; then
	for f in bash-completion/completions/sudokuc \
	    bash-completion/completions/sudokud; do
		[ -n "$(find "$dest" -path "*/$f")" ] || missing="$missing $f"
	done
fi
[ -z "$missing" ] &&
    ok "man pages, units, sysusers.d entry, completions, examples installed" ||
    notok "man pages, units, sysusers.d entry, completions, examples installed" \
	"missing:$missing"

# 8. The sysusers.d entry creates the group of the socket unit.
group=$(sed -n 's/^SocketGroup=//p' "$builddir/contrib/systemd/sudokud.socket")
f=$(find "$dest" -path '*/sysusers.d/sudokud.conf' | head -n 1)
if [ -n "$group" ] && [ -n "$f" ] &&
    grep -Eq "^[ug] $group( |$)" "$f"; then
	ok "sysusers.d/sudokud.conf creates the socket's group, $group"
else
	notok "sysusers.d/sudokud.conf creates the socket's group" \
	    "SocketGroup=$group; $f"
fi

# 9. make uninstall removes every file make install made.
(cd "$builddir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make uninstall DESTDIR="$dest") >"$tmp/uninstall.log" 2>&1
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] && ok "make uninstall leaves no file" ||
    notok "make uninstall leaves no file" "$left"
