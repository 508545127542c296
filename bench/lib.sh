#!/bin/sh
# SPDX-License-Identifier: ISC
# lib.sh -- shell functions the benchmark scripts share (sourced).

free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# CPU ticks (user + system) of process $1.
ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# get KEY "k=v k=v ..."
get() {
	for kv in $2; do
		case $kv in "$1"=*) echo "${kv#*=}"; return ;; esac
	done
}

# median [FORMAT]: of the numbers on stdin, one a line; an even count's
# two middle values averaged, printed with FORMAT (default %d).
median() {
	sort -n | awk -v fmt="${1:-%d}\n" '{ v[NR] = $1 } END {
	    if (NR == 0) print 0;
	    else if (NR % 2) print v[(NR + 1) / 2];
	    else printf fmt, (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# wait_socket PATH: until PATH is a socket, at most 5 s; 1 if it never
# is.
wait_socket() {
	_i=0
	while [ ! -S "$1" ]; do
		[ $_i -lt 100 ] || return 1
		sleep 0.05
		_i=$((_i + 1))
	done
}

# ab_tmp NAME: the A/B scripts' temporary directory, $tmp, removed at
# exit with the daemons whose pids ab_daemon adds to $pids.
ab_tmp() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-$1.XXXXXX") || exit 2
	pids=
	trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' \
	    EXIT
	trap 'exit 2' INT TERM
}

# ab_daemon SIDE: $SUDOKUD on $tmp/SIDE.conf, logging to $tmp/SIDE.log,
# until its socket $tmp/SIDE.sock is there (exit 2 if it never is); its
# pid in $tmp/SIDE.pid.
ab_daemon() {
	"$SUDOKUD" -f "$tmp/$1.conf" >"$tmp/$1.log" 2>&1 &
	pids="$pids $!"
	echo $! >"$tmp/$1.pid"
	wait_socket "$tmp/$1.sock" || { cat "$tmp/$1.log"; exit 2; }
}
