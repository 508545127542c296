#!/bin/sh
# SPDX-License-Identifier: ISC
# installdeps.sh -- scripts/install-deps does what its usage says (TAP):
# -h prints the usage and installs nothing, a group installs that group
# and those it builds on and no other, a bad argument is a usage error.
# And the commands that call it install what they run: README.md's test
# command (scripts/check --deps) the "test" group only, CI's (.ci/run:
# the same with --all) every group, which --all's variants need.
#
# It runs the real script with dpkg-query, apt-get and sudo stood in for
# on PATH (the test must not install anything): dpkg-query says nothing
# is installed, apt-get and sudo record that they were called.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
deps=$srcdir/scripts/install-deps
if [ ! -f "$deps" ]; then
	echo "1..1"
	echo "not ok 1 - $deps is missing: incomplete checkout"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/calls"\n' "$tmp" >"$tmp/bin/apt-get"
printf '#!/bin/sh\n"$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*

# run ARGS...: the script's status; its stdout, stderr and the calls in
# $tmp/out, $tmp/err, $tmp/calls
run() {
	rm -f "$tmp/calls"
	: >"$tmp/calls"
	PATH=$tmp/bin:$PATH sh "$deps" "$@" >"$tmp/out" 2>"$tmp/err"
}

# the packages of GROUP in the script's list
group() {
	sed -n "/^PKGS='/,/^'/p" "$deps" | awk -v g="$1" '$1 == g { print $2 }' |
	    tr '\n' ' '
}
installed() {
	sed -n 's/^apt-get install -y -qq --no-install-recommends //p' \
	    "$tmp/calls" | tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' '
}
sorted() {
	printf '%s\n' $* | sort | tr '\n' ' '
}

echo "1..10"

for h in -h --help; do
	run "$h"; st=$?
	if [ $st -eq 0 ] && grep -q '^usage: install-deps ' "$tmp/out" &&
	    [ ! -s "$tmp/calls" ]; then
		ok "$h: the usage on stdout, exit 0, nothing installed"
	else
		notok "$h: the usage on stdout, exit 0, nothing installed" \
		    "status $st; out: $(cat "$tmp/out"); calls: $(cat "$tmp/calls")"
	fi
done

run bogus; st=$?
if [ $st -eq 2 ] && grep -q "unknown argument 'bogus'" "$tmp/err" &&
    grep -q '^usage: install-deps ' "$tmp/err" && [ ! -s "$tmp/calls" ]; then
	ok "a bad argument: why and the usage on stderr, exit 2, nothing installed"
else
	notok "a bad argument: why and the usage on stderr, exit 2, nothing installed" \
	    "status $st; err: $(cat "$tmp/err")"
fi

run -n build; st=$?
if [ $st -eq 0 ] && grep -q "install-deps: for build" "$tmp/err" &&
    ! grep -q "install-deps: for make check" "$tmp/err" &&
    [ ! -s "$tmp/calls" ]; then
	ok "-n build: says what build lacks, installs nothing"
else
	notok "-n build: says what build lacks, installs nothing" \
	    "status $st; err: $(cat "$tmp/err"); calls: $(cat "$tmp/calls")"
fi

# expect WHAT ARGS -- GROUPS...: the packages installed for ARGS are WANT's groups
expect() {
	what=$1
	shift
	args=""
	while [ "$1" != "--" ]; do args="$args $1"; shift; done
	shift
	want=""
	for g in "$@"; do want="$want $(group "$g")"; done
	# shellcheck disable=SC2086
	run $args; st=$?
	got=$(installed)
	want=$(sorted $want)
	if [ $st -eq 0 ] && [ "$got" = "$want" ]; then
		ok "$what"
	else
		notok "$what" "status $st; installed: $got; wanted: $want; err: $(cat "$tmp/err")"
	fi
}
expect "build: the build group alone (the Quick start)" build -- build
expect "test: build and tests" test -- build tests
expect "pkg: build, tests and the packaging tools" pkg -- build tests pkg
expect "no argument: every group (scripts/check --all, CI)" -- \
    build tests all pkg

# The README's test command, and .ci/run (it appends --all), run in a
# copy of the four files they use, with apt-get failing at "install" so
# that scripts/check stops there: what was asked is in $tmp/calls.
mkdir -p "$tmp/top/scripts" "$tmp/top/.ci" "$tmp/fail"
for f in README.md .ci/run scripts/check scripts/install-deps; do
	cp "$srcdir/$f" "$tmp/top/$f"
done
printf '#!/bin/sh\necho "apt-get $*" >>"%s/calls"\ncase $1 in install) exit 1 ;; esac\n' \
    "$tmp" >"$tmp/fail/apt-get"
chmod +x "$tmp/fail/apt-get"
cmd=$(sed -n '/<!-- test-command -->/,/<!-- \/test-command -->/p' \
    "$tmp/top/README.md" | sed -n 's/^    //p' | head -n 1)

# ci WHAT CMD -- GROUPS...: CMD (run in the copy) asks for GROUPS' packages
ci() {
	what=$1 c=$2
	shift 3
	want=""
	for g in "$@"; do want="$want $(group "$g")"; done
	want=$(sorted $want)
	: >"$tmp/calls"
	(cd "$tmp/top" && PATH=$tmp/fail:$tmp/bin:$PATH sh -c "$c") \
	    >"$tmp/out" 2>&1
	st=$?
	got=$(installed)
	if [ $st -ne 0 ] && [ "$got" = "$want" ] &&
	    ! grep -q '^==> gcc' "$tmp/out"; then
		ok "$what"
	else
		notok "$what" "command: $c; status $st; asked: $got; wanted: $want; out: $(tail -n 5 "$tmp/out")"
	fi
}
ci "README's test command ($cmd) installs build and tests only" "$cmd" -- \
    build tests
ci ".ci/run (the README's command with --all) installs every group" \
    "sh .ci/run" -- build tests all pkg

[ $fails -eq 0 ]
