#!/bin/sh
# SPDX-License-Identifier: ISC
# mypy.sh -- the Python client's types (issue 31), TAP: mypy --strict
# passes on python/sudokud, and on tests/lint/mypy_usage.py, whose
# assert_type lines hold only while the overloads of effort=, info= and
# deadline= give the types they document.  Debian's mypy
# (scripts/install-deps); skipped where it is not installed.  No cache
# is written (the source tree stays clean).
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"

if ! command -v mypy >/dev/null 2>&1; then
	echo "1..0 # SKIP mypy is not installed (scripts/install-deps tests)"
	exit 0
fi
echo "1..2"
cd "$srcdir" || exit 1
run_mypy() {
	MYPYPATH=python mypy --strict --no-incremental --cache-dir=/dev/null \
	    "$@" 2>&1
}
out=$(run_mypy python/sudokud) && ok "mypy --strict python/sudokud" ||
    notok "mypy --strict python/sudokud" "$out"
out=$(run_mypy tests/lint/mypy_usage.py) &&
    ok "mypy --strict: the types of the client's calls" ||
    notok "mypy --strict: the types of the client's calls" "$out"
[ "$fails" -eq 0 ]
