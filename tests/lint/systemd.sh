#!/bin/sh
# SPDX-License-Identifier: ISC
# systemd.sh -- check contrib/systemd/sudokud.{service,socket} and the
# template sudokud@.service (TAP).
#
# systemd-analyze verify works without systemd as PID 1 (as in a
# container), but reports problems in unit files as warnings on stderr
# with exit status 0 ("Unknown key ..., ignoring."), so any output at
# all counts as a failure here.  Test 2 makes sure that this container's
# systemd-analyze does print such warnings, so test 1 cannot pass by
# saying nothing.
#
# ExecStart= must name an executable file, so the units are verified as
# copies whose @sbindir@/sudokud is a link to the built daemon (or a
# stub if it is not built).  Documentation= is checked against the
# built man pages through MANPATH.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
builddir=${top_builddir:-.}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"

diag() {
	sed 's/^/# /'
}

if ! command -v systemd-analyze >/dev/null 2>&1; then
	echo "1..0 # SKIP systemd-analyze not installed (apt-get install systemd)"
	exit 0
fi
units="$builddir/contrib/systemd"
if [ ! -f "$units/sudokud.service" ] || [ ! -f "$units/sudokud.socket" ] ||
    [ ! -f "$units/sudokud@.service" ]; then
	echo "1..0 # SKIP units not generated in $units (run make)"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/systemd-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/bin" "$tmp/units" "$tmp/bad" "$tmp/man/man8" "$tmp/man/man5"

daemon=""
for d in "$builddir/sudokud" "$builddir/src/sudokud"; do
	[ -x "$d" ] && [ -f "$d" ] && daemon=$(cd "$(dirname "$d")" && pwd)/sudokud
done
if [ -n "$daemon" ]; then
	ln -s "$daemon" "$tmp/bin/sudokud"
else
	echo "# sudokud not built: verifying against a stub executable"
	printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/sudokud"
	chmod 755 "$tmp/bin/sudokud"
fi

# The generated units name $(sbindir)/sudokud: point that at $tmp/bin.
sbin=$(sed -n 's|^ExecStart=\([^ ]*\)/sudokud .*|\1|p' "$units/sudokud.service")
for u in sudokud.service sudokud.socket sudokud@.service; do
	sed "s|$sbin/sudokud|$tmp/bin/sudokud|g" "$units/$u" > "$tmp/units/$u"
done
for m in man8/sudokud.8 man5/sudokud.conf.5; do
	base=${m#*/}
	[ -f "$builddir/man/$base" ] && cp "$builddir/man/$base" "$tmp/man/$m"
done

echo "1..14"

# 1. Both units, cross-checked together, without a word of complaint.
out=$(cd "$tmp/units" && MANPATH="$tmp/man" \
    systemd-analyze verify ./sudokud.service ./sudokud.socket 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
	ok "systemd-analyze verify prints nothing"
else
	notok "systemd-analyze verify prints nothing (exit $rc)"
	printf '%s\n' "$out" | diag
fi

# 2. The same check sees a misspelt key (so test 1 means something).
sed 's/^UMask=/UMsak=/' "$tmp/units/sudokud.service" > "$tmp/bad/sudokud.service"
cp "$tmp/units/sudokud.socket" "$tmp/bad/"
out=$(cd "$tmp/bad" && MANPATH="$tmp/man" \
    systemd-analyze verify ./sudokud.service ./sudokud.socket 2>&1)
if printf '%s\n' "$out" | grep -q "UMsak"; then
	ok "verify reports a misspelt key"
else
	notok "verify reports a misspelt key"
	printf '%s\n' "$out" | diag
fi

# 3. Every @variable@ was substituted.
if grep -n '@[a-zA-Z_]*@' "$units/sudokud.service" "$units/sudokud.socket" \
    "$units/sudokud@.service" >"$tmp/left" 2>&1; then
	notok "no unsubstituted @variables@"
	diag <"$tmp/left"
else
	ok "no unsubstituted @variables@"
fi

# 4-6. What sudokud relies on (Debian 12 has systemd 252: no notify-reload).
want() {
	if grep -qxF "$2" "$units/$1"; then
		ok "$1 has $2"
	else
		notok "$1 has $2"
	fi
}
want sudokud.service "Type=notify"
want sudokud.service 'ExecReload=/bin/kill -HUP $MAINPID'
want sudokud.socket "Accept=no"

# 7. The sandbox stays tight (exposure 0..100; 12 when written).
out=$(cd "$tmp/units" && systemd-analyze security --offline=true \
    --threshold=20 ./sudokud.service 2>&1)
if [ $? -eq 0 ]; then
	ok "security exposure at most 2.0"
else
	notok "security exposure at most 2.0"
	printf '%s\n' "$out" | grep -v '✓' | diag
fi

# 8. The template, as the instance sudokud@test.service, on its own
# (it needs no socket unit).
cp "$tmp/units/sudokud@.service" "$tmp/bad/sudokud@.service"
out=$(cd "$tmp/bad" && MANPATH="$tmp/man" \
    systemd-analyze verify ./sudokud@test.service 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
	ok "verify sudokud@test.service prints nothing"
else
	notok "verify sudokud@test.service prints nothing (exit $rc)"
	printf '%s\n' "$out" | diag
fi

# 9. Each instance has its own configuration file and runtime directory.
out=$(grep -c -e '^ExecStart=.* -f /.*/sudokud-%i\.conf$' \
    -e '^RuntimeDirectory=sudokud-%i$' "$units/sudokud@.service")
if [ "$out" = 2 ]; then
	ok "sudokud@.service: sudokud-%i.conf and /run/sudokud-%i"
else
	notok "sudokud@.service: sudokud-%i.conf and /run/sudokud-%i"
fi

# 10. The instances run in the same sandbox, as the same user, as the
# plain service: its lines from "User=" on are the template's.
sandbox() {
	sed -n '/^User=/,/^\[Install\]/p' "$1" | grep -v '^#'
}
if [ "$(sandbox "$units/sudokud.service")" = \
    "$(sandbox "$units/sudokud@.service")" ] &&
    [ "$(sandbox "$units/sudokud.service" | wc -l)" -ge 30 ]; then
	ok "sudokud@.service has the sandbox of sudokud.service"
else
	notok "sudokud@.service has the sandbox of sudokud.service"
	diff "$units/sudokud.service" "$units/sudokud@.service" | diag
fi

# 11. The instance's sandbox as tight as the plain service's.
out=$(cd "$tmp/bad" && systemd-analyze security --offline=true \
    --threshold=20 ./sudokud@test.service 2>&1)
if [ $? -eq 0 ]; then
	ok "sudokud@test.service: security exposure at most 2.0"
else
	notok "sudokud@test.service: security exposure at most 2.0"
	printf '%s\n' "$out" | grep -v '✓' | diag
fi

# 12-13. The stop timeout covers the default drain: each service's
# TimeoutStopSec= is more than the default shutdown_timeout plus the
# margin sudokud asks for beyond it (SERVER_STOP_MARGIN); a longer
# shutdown_timeout it asks for with EXTEND_TIMEOUT_USEC= (signals.py).
drain=$(sed -n '/"shutdown_timeout"/,/}/s/.*\.def = "\([0-9]*\)".*/\1/p' \
    "$srcdir/src/daemon/config_table.c")
margin=$(sed -n 's/^#define SERVER_STOP_MARGIN[[:space:]]*\([0-9]*\).*/\1/p' \
    "$srcdir/src/daemon/server.c")
for u in sudokud.service sudokud@.service; do
	stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' "$units/$u")
	name="$u: TimeoutStopSec= ($stop) more than the default"
	name="$name shutdown_timeout ($drain) plus SERVER_STOP_MARGIN ($margin)"
	if [ -n "$drain" ] && [ -n "$margin" ] && [ -n "$stop" ] &&
	    [ "$stop" -gt $((drain + margin)) ]; then
		ok "$name"
	else
		notok "$name"
	fi
done

# 14. The units' comments and the man pages say the margin it is.
left=""
for f in contrib/systemd/sudokud.service.in contrib/systemd/sudokud@.service.in \
    man/sudokud.8.in man/sudokud.conf.5.in; do
	grep -q "plus ${margin:-?} s" "$srcdir/$f" || left="$left $f"
done
if [ -z "$left" ] && [ -n "$margin" ]; then
	ok "the units and man pages say shutdown_timeout plus $margin s"
else
	notok "the units and man pages say shutdown_timeout plus $margin s" \
	    "not in:$left"
fi

[ $fails -eq 0 ]
