#!/bin/sh
# SPDX-License-Identifier: ISC
# spdx.sh -- every source file names its licence, ISC (LICENSE), with an
# SPDX line in its first three lines (TAP).
#
# Source files: C, Python, shell, the autotools, man pages, units and
# other templates (.in), the scripts, completions, the linker map and
# debian/rules; not data (the samples in tests/unit/samples are .in
# files too), corpora or prose.  From git when the tree is
# a checkout (so a new file cannot be missed), else from the files of a
# release tarball or a copy, less what autoreconf makes.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"

# sources: the source files, one per line, relative to srcdir.
sources() {
	if [ -e "$srcdir/.git" ] && command -v git >/dev/null 2>&1; then
		git -C "$srcdir" ls-files
	else
		(cd "$srcdir" && find . -type f ! -path './build/*' | sed 's|^\./||')
	fi | grep -E '\.(c|h|py|sh|in|am|ac|map)$|^(scripts|completions)/|^\.ci/run$|^debian/rules$' |
	    grep -vE '^tests/fuzz/corpus/|^tests/unit/samples/|^build-aux/|~$' |
	    grep -vE '(^|/)Makefile\.in$|^(aclocal\.m4|configure|autoconf\.h(\.in)?)$' |
	    grep -vE '^_build/'	# make distcheck's build
}

# lacking: the files of the list on stdin without the SPDX line.
lacking() {
	while IFS= read -r f; do
		head -n 3 "$srcdir/$f" | grep -q 'SPDX-License-Identifier: ISC' ||
		    echo "$f"
	done
}

files=$(sources)
count=$(printf '%s\n' "$files" | grep -c .)
echo "1..3"
if [ "$count" -ge 150 ]; then
	ok "$count source files found"
else
	notok "$count source files found (expected 150 or more)" "$files"
fi
missing=$(printf '%s\n' "$files" | lacking)
if [ -z "$missing" ]; then
	ok "each has SPDX-License-Identifier: ISC in its first three lines"
else
	notok "each has SPDX-License-Identifier: ISC in its first three lines" \
	    "$(printf '%s\n' "$missing" | sed 's/$/: no SPDX line/')"
fi
grep -q '^ISC License' "$srcdir/LICENSE" &&
    ok "LICENSE is the ISC licence the SPDX lines name" ||
    notok "LICENSE is the ISC licence the SPDX lines name"
[ $fails -eq 0 ]
