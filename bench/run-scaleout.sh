#!/bin/sh
# SPDX-License-Identifier: ISC
# run-scaleout.sh -- the cost of the HAProxy hop (make bench; see
# doc/scaling.md).
#
# One sudokud from the build tree with a plain tcp listener and a
# tcp_proxy one, and HAProxy running contrib/haproxy/sudokud.cfg with its
# servers pointed at the tcp_proxy listener.  bench/loadgen runs each
# scenario straight at the daemon and through HAProxy, alternating, ROUNDS
# times, and the table shows the medians: requests/s, latency, and the
# CPU each request costs the daemon and HAProxy.  Run from the build
# directory.  Skipped when haproxy is not installed.
#
# Environment: SUDOKUD, LOADGEN, HAPROXY (programs), PUZZLE_DIR,
# LOAD_SECONDS (measured seconds per run, default 3), LOAD_WARMUP
# (default 1), HOP_ROUNDS (default 5), HOP_WORKERS (default 1).
set -u

SUDOKUD=${SUDOKUD:-src/sudokud}
LOADGEN=${LOADGEN:-bench/loadgen}
HAPROXY=${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}
PUZZLE_DIR=${PUZZLE_DIR:-$(dirname "$0")/../data}
EXAMPLE=$(dirname "$0")/../contrib/haproxy/sudokud.cfg
SECS=${LOAD_SECONDS:-3}
WARM=${LOAD_WARMUP:-1}
ROUNDS=${HOP_ROUNDS:-5}
WORKERS=${HOP_WORKERS:-1}
PUZZLES=$PUZZLE_DIR/puzzles2_17_clue

if [ ! -x "$SUDOKUD" ] || [ ! -x "$LOADGEN" ]; then
	echo "run-scaleout: $SUDOKUD or $LOADGEN not built; skipped"
	exit 0
fi
if [ ! -x "$HAPROXY" ]; then
	echo "run-scaleout: haproxy not installed (apt-get install haproxy);" \
	    "skipped"
	exit 0
fi

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
HZ=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-hop.XXXXXX") || exit 2
dpid= hpid=
fail=0

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	for p in $dpid $hpid; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM





wait_port() {
	i=0
	while ! "$LOADGEN" -p "$1" -n 1 -q -x 1 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 50 ]; then
			echo "run-scaleout: nothing answers on port $1:" >&2
			cat "$tmp"/*.log >&2
			exit 2
		fi
		sleep 0.1
	done
}

port=$(free_port) pport=$(free_port) hport=$(free_port) mport=$(free_port) ||
    exit 2
cat >"$tmp/sudokud.conf" <<EOF
[server]
workers = $WORKERS
idle_timeout = 0
[listen]
tcp = 127.0.0.1:$port
tcp_proxy = 127.0.0.1:$pport
metrics = 127.0.0.1:$mport
[log]
level = warning
EOF
"$SUDOKUD" -f "$tmp/sudokud.conf" >"$tmp/sudokud.log" 2>&1 &
dpid=$!
# The example, every server at the one daemon (leastconn spreads the
# connections over three names for one address: the same as one).
sed -e "s|^\([[:space:]]*bind\) 127\.0\.0\.1:[0-9]*$|\1 127.0.0.1:$hport|" \
    -e "s|^\([[:space:]]*server node[0-9]*\) 127\.0\.0\.1:[0-9]* check port [0-9]*$|\1 127.0.0.1:$pport check port $mport|" \
    -e "s|^\([[:space:]]*log\) /dev/log .*|\1 stderr format raw local0 err|" \
    -e "s|^\([[:space:]]*stats socket\) [^ ]*|\1 $tmp/stats.sock|" \
    "$EXAMPLE" >"$tmp/haproxy.cfg"
"$HAPROXY" -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
hpid=$!
wait_port "$port"
wait_port "$hport"
sleep 2		# the first health checks

# one FILE PORT LOADGEN-ARGS...: one run; appends "rps p50 p99 dus hus".
one() {
	file=$1 to=$2
	shift 2
	d0=$(ticks "$dpid") h0=$(ticks "$hpid")
	# shellcheck disable=SC2086
	out=$("$LOADGEN" -p "$to" -t "$SECS" -w "$WARM" -j "$@") || fail=1
	d1=$(ticks "$dpid") h1=$(ticks "$hpid")
	n=$(get replies "$out")
	awk -v r="$(get rps "$out")" -v p50="$(get p50_us "$out")" \
	    -v p99="$(get p99_us "$out")" -v n="${n:-0}" -v hz="$HZ" \
	    -v d=$((d1 - d0)) -v h=$((h1 - h0)) 'BEGIN {
	    printf "%s %s %s %.2f %.2f\n", r, p50, p99,
		n ? d * 1e6 / hz / n : 0, n ? h * 1e6 / hz / n : 0 }' \
	    >>"$tmp/$file"
}

col() {
	awk -v c="$2" '{ print $c }' "$tmp/$1" | median %.2f
}

# scenario NAME LOADGEN-ARGS...: direct and via HAProxy, alternating.
scenario() {
	name=$1
	shift
	: >"$tmp/$name.direct"
	: >"$tmp/$name.haproxy"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		one "$name.direct" "$port" "$@"
		one "$name.haproxy" "$hport" "$@"
	done
	for via in direct haproxy; do
		printf '%-18s %-8s %9s %8s %8s %9s %9s\n' "$name" "$via" \
		    "$(col "$name.$via" 1)" "$(col "$name.$via" 2)" \
		    "$(col "$name.$via" 3)" "$(col "$name.$via" 4)" \
		    "$(col "$name.$via" 5)"
	done
}

echo "HAProxy hop: sudokud ($WORKERS worker(s)) straight and through" \
    "HAProxy ($("$HAPROXY" -v | awk 'NR == 1 { print $3 }'))," \
    "contrib/haproxy/sudokud.cfg; $(nproc) CPUs, $SECS s a run, medians" \
    "of $ROUNDS alternating rounds; loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %-8s %9s %8s %8s %9s %9s\n' scenario via req/s p50_us p99_us \
    sd_us/req hap_us/req
scenario solve17-c2-d32 -c 2 -d 32 -f "$PUZZLES"
scenario solve17-c8-d8 -c 8 -d 8 -f "$PUZZLES"
scenario ping-c1-d1 -c 1 -d 1
scenario ping-c8-d32 -c 8 -d 32
[ $fail -eq 0 ] || { echo "run-scaleout: a run failed (wrong replies?)"; \
    cat "$tmp/haproxy.log"; exit 1; }
