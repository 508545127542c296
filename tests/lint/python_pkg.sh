#!/bin/sh
# SPDX-License-Identifier: ISC
# python_pkg.sh -- the Python client's package agrees with the rest of
# the tree (issue 31, TAP): its version (sudokud/__init__.py, which
# buildsys.py reads for the wheel and the sdist) is the daemon's, AC_INIT
# of configure.ac, and debian/changelog's upstream version (python3-
# sudokud is built from the same source); every file of the package is
# in Makefile.am, so that a release tarball has it whole.  Each check
# is run again on a copy with a planted mismatch, which it must catch.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
PY=${PYTHON3:-python3}

# versions DIR: "configure.ac python buildsys changelog", one word each
versions() {
	ac=$(sed -n 's/^AC_INIT(\[sudokud\], \[\([^]]*\)\].*/\1/p' \
	    "$1/configure.ac")
	py=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' \
	    "$1/python/sudokud/__init__.py")
	bs=$(cd "$1/python" && "$PY" -B -c 'import buildsys
print(buildsys.VERSION)' 2>&1)
	deb=$(sed -n '1s/^sudokud (\([^)-]*\).*/\1/p' "$1/debian/changelog")
	echo "${ac:-none} ${py:-none} ${bs:-none} ${deb:-none}"
}

# agree WORDS...: are they all the same?
agree() {
	first=$1
	for w in "$@"; do
		[ "$w" = "$first" ] || return 1
	done
}

# missing DIR: the files of python/sudokud that Makefile.am does not name
missing() {
	for f in "$1"/python/sudokud/*; do
		f=python/sudokud/${f##*/}
		case $f in *__pycache__) continue ;; esac
		grep -q "[[:space:]]$f\([[:space:]]\|$\)" "$1/Makefile.am" ||
		    echo "$f"
	done
}

echo "1..4"
v=$(versions "$srcdir")
# shellcheck disable=SC2086
agree $v && ok "one version: AC_INIT, __version__, buildsys, debian/changelog ($v)" ||
    notok "one version: AC_INIT, __version__, buildsys, debian/changelog" \
    "configure.ac, __init__.py, buildsys.py, changelog: $v"
m=$(missing "$srcdir")
[ -z "$m" ] && ok "Makefile.am distributes every file of python/sudokud" ||
    notok "Makefile.am distributes every file of python/sudokud" \
    "not in Makefile.am: $m"

# The same checks on a copy with a mismatch planted.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/python_pkg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/python/sudokud" "$tmp/debian"
cp "$srcdir/configure.ac" "$srcdir/Makefile.am" "$tmp/"
cp "$srcdir/debian/changelog" "$tmp/debian/"
cp "$srcdir/python/buildsys.py" "$tmp/python/"
cp "$srcdir"/python/sudokud/*.py "$srcdir/python/sudokud/py.typed" \
    "$tmp/python/sudokud/"
sed -i 's/^__version__ = ".*"$/__version__ = "9.9.9"/' \
    "$tmp/python/sudokud/__init__.py"
v=$(versions "$tmp")
# shellcheck disable=SC2086
agree $v && notok "a planted version 9.9.9 is caught" "$v" ||
    ok "a planted version 9.9.9 is caught ($v)"
touch "$tmp/python/sudokud/planted.py"
m=$(missing "$tmp")
[ "$m" = python/sudokud/planted.py ] &&
    ok "a planted file missing from Makefile.am is caught" ||
    notok "a planted file missing from Makefile.am is caught" "got: $m"
[ "$fails" -eq 0 ]
