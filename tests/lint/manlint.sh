#!/bin/sh
# SPDX-License-Identifier: ISC
# manlint.sh -- every man page passes mandoc -Tlint -Wwarning (TAP).
#
# Checks the sources in $top_srcdir/man: the pages (*.1, *.5, *.8) and
# the templates (*.in) they are made from.  Skips if mandoc is missing.

srcdir=${top_srcdir:-$(dirname "$0")/../..}
pages=
for f in "$srcdir"/man/*.[158] "$srcdir"/man/*.in; do
	[ -f "$f" ] && pages="$pages $f"
done
set -- $pages
if [ $# -eq 0 ]; then
	echo "1..0 # SKIP no man pages in $srcdir/man"
	exit 0
fi
if ! command -v mandoc >/dev/null 2>&1; then
	echo "1..0 # SKIP mandoc not installed"
	exit 0
fi
echo "1..$#"
n=0
for f; do
	n=$((n + 1))
	out=$(mandoc -Tlint -Wwarning "$f" 2>&1)
	if [ -z "$out" ]; then
		echo "ok $n - mandoc -Tlint ${f##*/}"
	else
		echo "not ok $n - mandoc -Tlint ${f##*/}"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
