#!/bin/sh
# SPDX-License-Identifier: ISC
# debian.sh -- the Debian packages built, checked with lintian, installed,
# used as the package runs the service, and purged without a trace (TAP).
#
#   tests/pkg/debian.sh [SRCDIR]
#
# Run as root on Debian with dpkg-buildpackage (scripts/install-deps
# installs what it needs); scripts/check --all runs it on its copy of
# the sources.  It changes the machine it runs on, and restores it:
# it installs the four packages with dpkg -i and purges them at the
# end, whatever happens in between, and then deletes the user and group
# sudokud that installing them created (Debian's purge keeps system
# users, so that no file is left to a recycled id; this is a test).
# It refuses to run if any of the packages is installed already.
# python3-sudokud, the Python client built from python/ by pybuild, is
# imported by Debian's python3 and solves through the installed daemon.
#
# The build (dpkg-buildpackage -us -uc -b) happens in a copy of SRCDIR
# (default: the tree this script is in) under a temporary directory,
# with DEB_BUILD_OPTIONS=nocheck, as scripts/check has just run the
# suite; dh_auto_test --no-act then shows that a build without nocheck
# runs make check.  PKG_TEST_CHECK=yes builds with the tests instead
# (a few minutes more).
#
# systemd is not PID 1 here, so the service is started the way its
# units say by hand: systemd-socket-activate stands in for
# sudokud.socket (its ListenStream= and FileDescriptorName=; SocketMode=
# and SocketGroup= are applied with chmod and chgrp once the socket
# exists) and starts ExecStart= at the first connection, under setpriv
# as the unit's User= and Group= with their supplementary groups, as
# systemd does; ExecStartPre= runs the same way first.  The sandbox of
# the unit needs systemd: tests/lint/systemd.sh checks it instead.  The
# client is the installed sudokuc, run as nobody with the group sudokud
# as a supplementary group, and once without it.  The template
# sudokud@.service is started the same way as the instance sudokud@test,
# with a configuration file /etc/sudokud-test.conf the test writes and
# removes, and a TLS listener whose key, in /etc/sudokud-test-tls, only
# root and the group sudokud may read.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
src=$(cd "${1:-$here/../..}" && pwd) || exit 2
pkgs="sudokud sudokuc libsudoku1 libsudoku-dev python3-sudokud"
puzzle=53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
answer=534678912672195348198342567859761423426853791713924856961537284287419635345286179
plan=30

# check NAME DIAG COMMAND...: ok if COMMAND succeeds
check() {
	name=$1 diag=$2
	shift 2
	if "$@"; then ok "$name"; else notok "$name" "$diag"; fi
}
# bail REASON: the remaining tests fail with REASON; clean up, exit 1
bail() {
	while [ "$n" -lt "$plan" ]; do
		notok "not run: $1"
	done
	exit 1
}

if ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	echo "1..0 # SKIP dpkg-buildpackage not installed (scripts/install-deps)"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP not root: dpkg -i needs root"
	exit 0
fi
echo "1..$plan"
for p in $pkgs; do
	if dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null |
	    grep -qv '^not-installed$'; then
		bail "package $p is on this machine: the test would purge it"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-debian.XXXXXX") || exit 2
chmod 755 "$tmp"
had_user=no had_group=no
getent passwd sudokud >/dev/null && had_user=yes
getent group sudokud >/dev/null && had_group=yes
pid=""
sock=""
installed=no

# Whatever happened: stop the daemon, purge, drop the user and group if
# the packages made them, remove the temporary directory.
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	[ -n "$sock" ] && rm -f "$sock"
	[ -n "${conf:-}" ] && rm -f "$conf"
	[ -n "${tlsdir:-}" ] && rm -rf "$tlsdir"
	[ -n "${rundir:-}" ] && rm -rf "$rundir"
	if [ "$installed" = yes ]; then
		dpkg_retry --purge $pkgs >/dev/null 2>&1
	fi
	[ "$had_user" = no ] && getent passwd sudokud >/dev/null &&
	    userdel sudokud 2>/dev/null
	[ "$had_group" = no ] && getent group sudokud >/dev/null &&
	    groupdel sudokud 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# dpkg_retry ARGS...: dpkg ARGS, waiting up to 5 minutes for its lock
# (another apt or dpkg may be running on a shared machine).
dpkg_retry() {
	i=0
	while :; do
		out=$(dpkg "$@" 2>&1) && { printf '%s\n' "$out"; return 0; }
		rc=$?
		case $out in
		*"lock"*) [ $i -lt 60 ] || break ;;
		*) break ;;
		esac
		i=$((i + 1))
		sleep 5
	done
	printf '%s\n' "$out"
	return $rc
}

# snapshot: every path in the places a package may write to, less what
# changes there without being a package's file (systemd-sysusers'
# backups of the user database, Python's caches).
snapshot() {
	find /etc/ /usr/ /opt/ /var/lib/systemd/ /var/lib/dpkg/info/ -xdev \
	    -name __pycache__ -prune -o -print 2>/dev/null |
	    grep -Ev '^/etc/(passwd|group|shadow|gshadow)-$' | sort
}

# ---- build -----------------------------------------------------------
mkdir "$tmp/build" "$tmp/build/sudokud" || bail "mkdir $tmp/build"
if [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
	(cd "$src" && git -c core.quotePath=false ls-files --cached --others \
	    --exclude-standard | while IFS= read -r f; do
		[ -e "$f" ] || [ -L "$f" ] && printf '%s\n' "$f"
	done | tar -cf - --verbatim-files-from -T -)
else
	(cd "$src" && tar -cf - --exclude=./build --exclude=./.git .)
fi | tar -xf - -C "$tmp/build/sudokud" || bail "cannot copy $src"
tree=$tmp/build/sudokud
opts="nocheck"
[ "${PKG_TEST_CHECK:-no}" = yes ] && opts=""
jobs=$(nproc 2>/dev/null || echo 2)
log=$tmp/build.log
# With Debian's own tools first on the PATH, as a build chroot has them
# (pybuild runs python3.X by name: not a pyenv's or a venv's).
if (cd "$tree" && PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH \
    DEB_BUILD_OPTIONS="$opts parallel=$jobs" \
    timeout 1800 dpkg-buildpackage -us -uc -b) >"$log" 2>&1; then
	debs=""
	for p in $pkgs; do
		set -- "$tmp/build/${p}_"*"_"*.deb
		[ -f "$1" ] && debs="$debs $1"
	done
	check "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=$opts) builds $pkgs" \
	    "debs:$debs" [ "$(echo $debs | wc -w)" -eq 5 ]
else
	notok "dpkg-buildpackage -us -uc -b builds $pkgs" "$(tail -n 40 "$log")"
	bail "the build failed"
fi

# dh_auto_test would run make check: its dry run without nocheck.
out=$(cd "$tree" && DEB_BUILD_OPTIONS= dh_auto_test --no-act 2>&1)
check "without nocheck, dh_auto_test runs make check" "$out" \
    sh -c 'printf "%s\n" "$1" | grep -q "^[[:space:]]*make .*\bcheck\b"' \
    sh "$out"

# hardening=+all: PIE, RELRO, BIND_NOW, stack protector, fortified calls
why=""
for f in sudokud/usr/sbin/sudokud sudokuc/usr/bin/sudokuc \
    libsudoku1/usr/lib/*/libsudoku.so.1.*.*; do
	b=$(echo "$tree"/debian/$f)
	[ -f "$b" ] || { why="$why $f: missing;"; continue; }
	readelf -h "$b" | grep -q 'Type:.*DYN' || why="$why $f: not PIE;"
	readelf -lW "$b" | grep -q GNU_RELRO || why="$why $f: no RELRO;"
	readelf -dW "$b" | grep -q 'BIND_NOW\|FLAGS_1.*NOW' ||
	    why="$why $f: no BIND_NOW;"
	case $f in
	*.so.*) continue ;;
	esac
	readelf -sW --dyn-syms "$b" | grep -q __stack_chk_fail ||
	    why="$why $f: no stack protector;"
	readelf -sW --dyn-syms "$b" | grep -q '__[a-z]*_chk' ||
	    why="$why $f: no fortified calls;"
done
check "hardening=+all: PIE, RELRO, BIND_NOW; stack protector and FORTIFY in the programs" \
    "$why" [ -z "$why" ]

# lintian: no error, no warning; every override says why.
changes=$(echo "$tmp"/build/sudokud_*.changes)
out=$(timeout 900 lintian --fail-on error,warning --display-info \
    --tag-display-limit 0 "$changes" 2>&1)
rc=$?
out=$(printf '%s\n' "$out" | grep -v 'running with root privileges')
bare=$(for f in "$tree"/debian/*lintian-overrides; do
	[ -f "$f" ] || continue
	awk -v f="${f##*/}" '/^#/ { c = 1; next } /^[ \t]*$/ { c = 0; next }
	    { if (!c) print f ": " $0 }' "$f"
done)
if [ $rc -eq 0 ] && [ -z "$bare" ]; then
	ok "lintian: no error or warning; every override has a reason"
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
else
	notok "lintian: no error or warning; every override has a reason" \
	    "lintian exit $rc: $out
overrides without a comment: $bare"
fi

# ---- install -----------------------------------------------------------
before=$tmp/before
snapshot >"$before"
installed=yes
if out=$(cd "$tmp/build" && dpkg_retry -i $debs); then
	ok "dpkg -i installs them"
else
	notok "dpkg -i installs them" "$out"
	bail "dpkg -i failed"
fi

# Without systemd as PID 1 the postinst says that nothing was started,
# and how to start it: the two lines of README.md (<!-- container-start
# -->), which start the daemon below.
readme=$(sed -n '/<!-- container-start -->/,/<!-- \/container-start -->/p' \
    "$src/README.md" | sed -n 's/^    //p')
said=$(printf '%s\n' "$out" | sed -n 's/^    //p')
if [ -d /run/systemd/system ]; then
	check "with systemd running, the postinst has no word on starting it" \
	    "$out" [ -z "$said" ]
else
	check "without systemd as PID 1, the postinst says nothing started, and README.md's two lines" \
	    "dpkg -i said: $out; README.md: $readme" sh -c \
	    'printf "%s\n" "$1" | grep -q "^sudokud: systemd is not running" &&
	    [ -n "$2" ] && [ "$2" = "$3" ]' sh "$out" "$said" "$readme"
fi
for p in $pkgs; do
	dpkg -L "$p" >>"$tmp/files"
done

# The package depends on what its programs link: each library a
# program names (NEEDED) is of a package its Depends lists.
why=""
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
for pair in sudokud:/usr/sbin/sudokud sudokuc:/usr/bin/sudokuc; do
	p=${pair%%:*} b=${pair#*:}
	deps=$(dpkg-query -W -f='${Depends}' "$p")
	for so in $(readelf -dW "$b" |
	    sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p'); do
		lib=$(dpkg -S "*/$multi/$so" 2>/dev/null | head -n 1)
		lib=${lib%%:*}
		printf '%s\n' "$deps" | tr ',|' '\n\n' | sed 's/^ *//; s/ .*//' |
		    grep -qx "${lib:-none}" || why="$why $p links $so (${lib:-no package}), Depends: $deps;"
	done
done
check "the packages depend on what their programs link (libssl3, libevent, ...)" \
    "$why" [ -z "$why" ]

pw=$(getent passwd sudokud)
check "the postinst made the system user and group sudokud (systemd-sysusers)" \
    "passwd: $pw; group: $(getent group sudokud)" \
    sh -c 'case $1 in sudokud:x:*:*:*:*:*/nologin) getent group sudokud >/dev/null ;; *) false ;; esac' \
    sh "$pw"

why=""
dpkg-query -W -f='${Conffiles}\n' sudokud | grep -q '^ /etc/sudokud.conf ' ||
    why="$why /etc/sudokud.conf is no conffile;"
for l in /etc/systemd/system/sockets.target.wants/sudokud.socket \
    /etc/systemd/system/multi-user.target.wants/sudokud.service; do
	[ -L "$l" ] || why="$why $l missing;"
done
check "/etc/sudokud.conf is a conffile; the units are enabled" "$why" \
    [ -z "$why" ]

# The examples and doc/scaling.md that sudokud(8) points to, shipped.
why=""
for f in scaling.md examples/sudokud.conf examples/haproxy/sudokud.cfg \
    examples/haproxy/sudokud-tls.cfg examples/haproxy/sudokud-reencrypt.cfg \
    examples/prometheus/prometheus.yml examples/prometheus/sudokud-rules.yml \
    examples/kubernetes/sudokud.yaml; do
	grep -qx "/usr/share/doc/sudokud/$f" "$tmp/files" || why="$why $f"
done
check "sudokud ships scaling.md and the examples in /usr/share/doc/sudokud" \
    "missing:$why" [ -z "$why" ]

# The example of the installed sudoku(3), built against the installed
# libsudoku-dev through its pkg-config file, prints what the page shows.
zcat /usr/share/man/man3/sudoku.3.gz >"$tmp/sudoku.3" 2>/dev/null
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$tmp/sudoku.3" |
    sed -n '/^\.Bd -literal/,/^\.Ed/p' | sed -n '2,/^\.Ed/p' | sed '$d' |
    sed 's/\\e/\\/g; s/\\&//g' >"$tmp/example.c"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$tmp/sudoku.3" |
    sed -n '/^\$ \.\/example$/,/^\.Ed/p' | sed '1d;$d' >"$tmp/expected"
out=$(cd "$tmp" && cc -o example example.c \
    $(pkg-config --cflags --libs sudoku) 2>&1 && ./example 2>&1)
check "sudoku(3)'s example builds with the installed sudoku.pc and runs" \
    "$out" sh -c '[ -s "$1/expected" ] && [ "$2" = "$(cat "$1/expected")" ]' \
    sh "$tmp" "$out"

# ---- the service, as its units start it ----------------------------------
unit() {
	sed -n "s/^$2=//p" "/lib/systemd/system/sudokud.$1" | head -n 1
}
listen=$(unit socket ListenStream) mode=$(unit socket SocketMode)
sgroup=$(unit socket SocketGroup) fdname=$(unit socket FileDescriptorName)
user=$(unit service User) group=$(unit service Group)
pre=$(unit service ExecStartPre) start=$(unit service ExecStart)
[ -n "$listen" ] && [ -n "$user" ] && [ -n "$start" ] ||
    bail "cannot read the installed units"
as_user="setpriv --reuid=$user --regid=$group --init-groups --"
gid=$(getent group "$sgroup" | cut -d: -f3)
member="setpriv --reuid=nobody --regid=nogroup --groups=$gid --"
stranger="setpriv --reuid=nobody --regid=nogroup --clear-groups --"

out=$($as_user $pre 2>&1)
check "ExecStartPre as $user:$group: $pre" "$out" \
    [ "$out" = "configuration OK" ]

# README.md's two lines start it: first, that they do what the units
# say (ListenStream=, FileDescriptorName=, User=, Group=, ExecStart=
# with -d for a log on standard error; SocketMode=, SocketGroup=).
first=$(printf '%s\n' "$readme" | sed -n '1s/ &$//p')
second=$(printf '%s\n' "$readme" | sed -n 2p)
want1="systemd-socket-activate -l $listen --fdname=$fdname -- $as_user $(printf '%s' "$start" | sed 's/ -f / -d -f /')"
check "README.md's lines start the daemon as the units do" \
    "first: $first; want: $want1; second: $second" sh -c \
    '[ "$1" = "$2" ] && case $3 in *"chgrp $4 $5 "*"chmod $6 $5") ;; *) false ;; esac' \
    sh "$first" "$want1" "$second" "$sgroup" "$listen" "$mode"
sock=$listen
(umask 077 && exec sh -c "exec $first") >"$tmp/daemon.log" 2>&1 &
pid=$!
timeout 10 sh -c "$second"
out=$(timeout 20 $member sudokuc ping 2>&1)
check "sudokuc ping, as a member of the group $sgroup, starts the daemon on $listen" \
    "$out; daemon: $(cat "$tmp/daemon.log")" \
    sh -c 'printf "%s\n" "$1" | grep -q "^pong from unix:"' sh "$out"

ids=$(awk '/^Uid:/ { u = $2 } /^Gid:/ { g = $2 } END { print u ":" g }' \
    "/proc/$pid/status" 2>/dev/null)
want="$(id -u "$user"):$(getent group "$group" | cut -d: -f3)"
exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
check "the daemon, /usr/sbin/sudokud, runs as $user:$group ($want)" \
    "pid $pid: exe $exe, uid:gid $ids" \
    [ "$ids $exe" = "$want /usr/sbin/sudokud" ]

out=$(timeout 20 $member sudokuc "$puzzle" 2>&1)
check "the installed sudokuc solves a puzzle through it" "$out" \
    [ "$out" = "$answer" ]

out=$(timeout 20 $member sudokuc version 2>&1)
want=$(/usr/sbin/sudokud -V 2>&1 | awk '{ print $NF }')
check "sudokuc version: the installed daemon's, $want" "$out" \
    sh -c 'printf "%s\n" "$1" | grep -q "^sudokud $2 at unix:"' sh "$out" "$want"

# The installed Python client, as a member of the group: Debian's
# python3 (not one of a virtual environment), its module from
# /usr/lib/python3/dist-packages, the daemon's version.
out=$(cd / && SUDOKUD_SOCKET=$sock timeout 20 $member /usr/bin/python3 -c '
import sudokud, sys
with sudokud.Client() as c:
    print(c.solve(sys.argv[1]), c.version() == sudokud.__version__,
          sudokud.__file__)' "$puzzle" 2>&1)
check "python3-sudokud: Debian's python3 imports it and solves through the daemon, one version" \
    "$out" [ "$out" = "$answer True /usr/lib/python3/dist-packages/sudokud/__init__.py" ]

out=$(timeout 20 $stranger sudokuc ping 2>&1)
rc=$?
refused() {
	[ "$1" -ne 0 ] &&
	    printf '%s\n' "$2" | grep -q "Permission denied.*'$sgroup'"
}
check "a user outside the group is refused, and told to join $sgroup" \
    "exit $rc: $out" refused $rc "$out"

kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait "$pid"
rc=$?
pid=""
check "SIGTERM stops it, exit status 0" "exit $rc; $(tail -n 5 "$tmp/daemon.log")" \
    [ $rc -eq 0 ]
# systemd removes the socket when sudokud.socket stops (RemoveOnStop=yes)
rm -f "$sock"
sock=""

# ---- an instance of the template sudokud@.service --------------------------
# As systemd would start sudokud@test: RuntimeDirectory= made as the
# unit's user with its mode, then ExecStartPre= and ExecStart= with %i
# replaced, under setpriv as User= and Group=.
tunit=/lib/systemd/system/sudokud@.service
tval() {
	sed -n "s/^$1=//p" "$tunit" | head -n 1 | sed 's/%i/test/g'
}
why=""
[ -f "$tunit" ] || why="$tunit missing;"
set -- /etc/systemd/system/*.wants/sudokud@*
[ -e "$1" ] && why="$why enabled by the package: $*;"
[ "$(tval User):$(tval Group)" = "$user:$group" ] ||
    why="$why User/Group $(tval User):$(tval Group);"
check "sudokud@.service is installed, not enabled; same User and Group" \
    "$why" [ -z "$why" ]

conf=$(tval ExecStart | sed -n 's/.* -f \([^ ]*\)$/\1/p')
rundir=/run/$(tval RuntimeDirectory)
tsock=$rundir/sudokud.sock
# A TLS listener whose key only root can read, then root and the group.
tlsdir=/etc/sudokud-test-tls
tport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
install -d -o root -g "$group" -m 0750 "$tlsdir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$tlsdir/key.pem" -out "$tlsdir/cert.pem" >/dev/null 2>&1
chown root:root "$tlsdir/key.pem" && chmod 0600 "$tlsdir/key.pem"
chgrp "$group" "$tlsdir/cert.pem" && chmod 0640 "$tlsdir/cert.pem"
printf '[listen]\nunix = %s\ntls = 127.0.0.1:%s\n[tls]\ncert = %s\nkey = %s\n' \
    "$tsock" "$tport" "$tlsdir/cert.pem" "$tlsdir/key.pem" >"$conf"
install -d -o "$user" -g "$group" -m "$(tval RuntimeDirectoryMode)" "$rundir"
out=$($as_user $(tval ExecStartPre) 2>&1)
check "sudokud@test: ExecStartPre refuses a [tls] key only root may read" \
    "$out" sh -c 'case $1 in *"$2: Permission denied") ;; *) false ;; esac' \
    sh "$out" "$tlsdir/key.pem"
chgrp "$group" "$tlsdir/key.pem" && chmod 0640 "$tlsdir/key.pem"
out=$($as_user $(tval ExecStartPre) 2>&1)
check "sudokud@test: ExecStartPre checks $conf, its key of root and the group $group (0640)" \
    "$out" [ "$out" = "configuration OK" ]
(umask 077 && exec $as_user $(tval ExecStart)) >"$tmp/test.log" 2>&1 &
pid=$!
i=0
while [ ! -S "$tsock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
out=$(timeout 20 $member sudokuc -s "$tsock" "$puzzle" 2>&1)
out2=$(timeout 20 $stranger sudokuc -s "$tsock" ping 2>&1)
rc=$?
check "sudokud@test answers the group $group on $tsock, and only it" \
    "member: $out; outsider: exit $rc: $out2; daemon: $(cat "$tmp/test.log")" \
    sh -c '[ "$1" = "$2" ] && [ "$3" -ne 0 ]' sh "$out" "$answer" "$rc"
# (The client's copy of the certificate: the directory is the group's.)
install -m 0644 "$tlsdir/cert.pem" "$tmp/ca.pem"
out=$(timeout 20 $stranger sudokuc --tls --ca "$tmp/ca.pem" \
    -H "tls://127.0.0.1:$tport" "$puzzle" 2>&1)
check "sudokud@test serves TLS with that key to the installed sudokuc --tls" \
    "$out; daemon: $(tail -n 5 "$tmp/test.log")" [ "$out" = "$answer" ]
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=""
check "sudokud@test: SIGTERM stops it, exit status 0" \
    "exit $rc; $(tail -n 5 "$tmp/test.log")" [ $rc -eq 0 ]
# systemd removes the runtime directory when the unit stops
rm -rf "$rundir" "$conf" "$tlsdir"

# ---- purge ---------------------------------------------------------------
if out=$(dpkg_retry --purge $pkgs); then
	installed=no
	ok "dpkg --purge removes them"
else
	notok "dpkg --purge removes them" "$out"
fi

# Each path dpkg -L listed is gone, but the directories that other
# packages own or that hold other files (such as /usr, or /lib, a link).
left=$(sort -u "$tmp/files" | while IFS= read -r f; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	if [ -d "$f" ]; then
		dpkg -S "$f" >/dev/null 2>&1 && continue
		[ -n "$(ls -A "$f")" ] && continue
	fi
	echo "$f"
done)
check "no file of the packages is left (dpkg -L lists, conffiles included)" \
    "$left" [ -z "$left" ]

snapshot >"$tmp/after"
diff=$(diff "$before" "$tmp/after" | grep '^[<>]')
check "nothing else is left or gone in /etc, /usr, /opt, /var/lib/systemd, /var/lib/dpkg/info" \
    "$diff" [ -z "$diff" ]

check "the user and group sudokud stay after the purge (Debian's practice)" \
    "passwd: $(getent passwd sudokud)" sh -c 'getent passwd sudokud >/dev/null'
[ $n -eq $plan ] || bail "the plan counts $plan tests"
[ $fails -eq 0 ]
