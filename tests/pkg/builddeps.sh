#!/bin/sh
# SPDX-License-Identifier: ISC
# builddeps.sh -- debian/control's Build-Depends and scripts/install-deps
# name the same packages (TAP).
#
# Every package of install-deps' "build" group is a Build-Depends, every
# one of its "tests" group a Build-Depends marked <!nocheck> (make check
# needs it, the build does not), except the build-essential packages,
# which Debian does not list; and Build-Depends has nothing else but
# debhelper-compat, which debhelper (group "pkg") provides.  And the
# package version is the release's.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
control=$srcdir/debian/control
deps=$srcdir/scripts/install-deps
for f in "$control" "$deps"; do
	if [ ! -f "$f" ]; then
		echo "1..1"
		echo "not ok 1 - $f is missing: incomplete checkout"
		exit 0
	fi
done

# Debian's build-essential set: never in Build-Depends.
essential=" build-essential dpkg-dev gcc g++ libc6-dev make "

# install-deps: "GROUP PACKAGE WHY" lines of its PKGS list
group() {
	sed -n "/^PKGS='/,/^'/p" "$deps" | awk -v g="$1" '$1 == g { print $2 }'
}
# Build-Depends: "NAME PROFILE" lines (PROFILE "-" when none)
bdeps=$(awk '
	/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
	on && /^[ \t]/ { print; next }
	{ on = 0 }' "$control" | tr '\n' ' ' | tr ',' '\n' | awk '
	NF == 0 { next }
	{
		name = $1; prof = "-"
		if (match($0, /<[^>]*>/))
			prof = substr($0, RSTART, RLENGTH)
		print name, prof
	}')

echo "1..6"

build=$(group build) tests=$(group tests)
if [ -n "$build" ] && [ -n "$tests" ] && [ -n "$bdeps" ]; then
	ok "install-deps has build and tests groups; debian/control Build-Depends"
else
	notok "install-deps has build and tests groups; debian/control Build-Depends" \
	    "build: $build; tests: $tests; Build-Depends: $bdeps"
fi

# want GROUP PROFILE: each package of GROUP is a Build-Depends with PROFILE
want() {
	bad=""
	for p in $(group "$1"); do
		case $essential in *" $p "*) continue ;; esac
		got=$(printf '%s\n' "$bdeps" | awk -v p="$p" '$1 == p { print $2 }')
		[ "$got" = "$2" ] || bad="$bad $p (${got:-absent})"
	done
	if [ -z "$bad" ]; then
		ok "install-deps' $1 packages are Build-Depends, profile $2"
	else
		notok "install-deps' $1 packages are Build-Depends, profile $2" \
		    "wrong:$bad"
	fi
}
want build -
want tests "<!nocheck>"

extra=""
for p in $(printf '%s\n' "$bdeps" | awk '{ print $1 }'); do
	[ "$p" = debhelper-compat ] && continue
	printf '%s\n' $build $tests | grep -qx "$p" || extra="$extra $p"
done
[ -z "$extra" ] &&
    ok "Build-Depends names nothing install-deps does not install for make check" ||
    notok "Build-Depends names nothing install-deps does not install for make check" \
	"extra:$extra"

if printf '%s\n' "$bdeps" | grep -q '^debhelper-compat ' &&
    group pkg | grep -qx debhelper &&
    [ ! -e "$srcdir/debian/compat" ]; then
	ok "debhelper-compat from Build-Depends, debhelper in install-deps"
else
	notok "debhelper-compat from Build-Depends, debhelper in install-deps"
fi

# The package's version is the release's: debian/changelog's upstream
# version (before any -revision) is AC_INIT's, which sudokud -V prints.
deb=$(sed -n '1s/^[^ ]* (\([^)-]*\).*/\1/p' "$srcdir/debian/changelog")
ac=$(sed -n 's/^AC_INIT(\[[^]]*\], \[\([^]]*\)\].*/\1/p' "$srcdir/configure.ac")
if [ -n "$deb" ] && [ "$deb" = "$ac" ]; then
	ok "debian/changelog's version is configure.ac's, $ac"
else
	notok "debian/changelog's version is configure.ac's" \
	    "debian/changelog: $deb; AC_INIT: $ac"
fi
