#!/bin/sh
# SPDX-License-Identifier: ISC
# run-load.sh -- daemon load benchmark (make bench; see doc/bench-daemon.md).
#
# Starts its own sudokud from the build tree on a temporary Unix socket
# and a free TCP port on 127.0.0.1, one daemon per scenario (so each has
# its own worker count), drives it with bench/loadgen, prints a table
# and checks the project's bars.  Run from the build directory.
#
# Environment: SUDOKUD, LOADGEN, SOLVERBENCH (programs), PUZZLE_DIR,
# LOAD_SECONDS (measured seconds per run, default 3), LOAD_WARMUP
# (default 1), LOAD_REPEAT (runs per scenario, the best is kept; default
# 3), LOAD_ROUNDS (alternating runs of each side of a comparison, the
# median is kept; default 5), LOAD_IDLE (idle connections for the memory test, default 10000),
# LOAD_STRICT=1 (exit 1 when a bar is missed, not only on wrong replies).
# ulimit -n is not POSIX but dash, bash and busybox sh all have it.
# shellcheck disable=SC3045
set -u

SUDOKUD=${SUDOKUD:-src/sudokud}
LOADGEN=${LOADGEN:-bench/loadgen}
SOLVERBENCH=${SOLVERBENCH:-bench/solverbench}
PUZZLE_DIR=${PUZZLE_DIR:-$(dirname "$0")/../data}
SECS=${LOAD_SECONDS:-3}
WARM=${LOAD_WARMUP:-1}
REPEAT=${LOAD_REPEAT:-3}
ROUNDS=${LOAD_ROUNDS:-5}
IDLE=${LOAD_IDLE:-10000}
STRICT=${LOAD_STRICT:-0}
PIN=		# command prefix for daemon and loadgen (taskset)
ping1pin=0 solve1pin=0
PUZZLES=$PUZZLE_DIR/puzzles2_17_clue

# Bars (doc/bench-daemon.md).
BAR_PING1=60000		# req/s, PING 1 conn depth 1, Unix
BAR_PING2=800000	# req/s, PING 2 conns depth 32
BAR_SOLVE=80		# % of the in-process single-thread rate
BAR_RSS=2048		# bytes per idle connection

if [ ! -x "$SUDOKUD" ] || [ ! -x "$LOADGEN" ]; then
	echo "run-load: $SUDOKUD or $LOADGEN not built; skipped"
	exit 0
fi
if ! ulimit -n 20000 2>/dev/null; then
	echo "run-load: cannot raise the open file limit to 20000;" \
	    "memory test limited to $(($(ulimit -n) - 100)) connections"
	IDLE=$(($(ulimit -n) - 100))
fi

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
HZ=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-load.XXXXXX") || exit 2
sock=$tmp/sock
dpid= rpid=
fail=0
missed=0

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	for p in $dpid $rpid; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM


# daemon_start WORKERS MAXCONN [SOLVER-LINES]
daemon_start() {
	port=$(free_port) || exit 2
	cat >"$tmp/sudokud.conf" <<EOF
[server]
workers = $1
max_connections = $2
max_connections_per_peer = 0
idle_timeout = 0
[solver]
${3:-}
[listen]
unix = $sock
tcp = 127.0.0.1:$port
[log]
level = warning
EOF
	# shellcheck disable=SC2086
	$PIN "$SUDOKUD" -f "$tmp/sudokud.conf" >"$tmp/daemon.log" 2>&1 &
	dpid=$!
	i=0
	while ! "$LOADGEN" -U "$sock" -n 1 -q -x 1 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 50 ] || ! kill -0 "$dpid" 2>/dev/null; then
			echo "run-load: sudokud did not start:" >&2
			cat "$tmp/daemon.log" >&2
			exit 2
		fi
		sleep 0.1
	done
}

daemon_stop() {
	kill "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
}




row() {
	printf '%-20s %7s %4s %5s %5s %9s %8s %8s %9s %6s %4s %4s %6s\n' \
	    "$@"
}

# scenario NAME WORKERS TARGET CONNS DEPTH THREADS LOADGEN-ARGS...
# Runs REPEAT times, keeps the fastest run in $best_rps.
scenario() {
	name=$1 w=$2 target=$3 c=$4 d=$5 t=$6
	shift 6
	daemon_start "$w" 1024
	if [ "$target" = unix ]; then to="-U $sock"; else to="-p $port"; fi
	best='' best_rps=0
	r=0
	while [ $r -lt "$REPEAT" ]; do
		r=$((r + 1))
		t0=$(ticks "$dpid") s0=$(date +%s%N)
		# shellcheck disable=SC2086
		out=$($PIN "$LOADGEN" $to -c "$c" -d "$d" -T "$t" -t "$SECS" \
		    -w "$WARM" -j "$@") || fail=1
		t1=$(ticks "$dpid") s1=$(date +%s%N)
		dcpu=$(( (t1 - t0) * 100 * 1000000000 / HZ / (s1 - s0) ))
		dus=$(awk -v t=$((t1 - t0)) -v n="$(get replies "$out")" \
		    -v hz="$HZ" 'BEGIN { printf "%.2f", n ? t * 1e6 / hz / n : 0 }')
		rps=$(get rps "$out")
		rps=${rps:-0}
		if [ "$rps" -ge "$best_rps" ]; then
			best_rps=$rps best="$out" best_dcpu=$dcpu best_dus=$dus
		fi
	done
	daemon_stop
	row "$name" "$w" "$target" "$c" "$d" "$best_rps" \
	    "$(get p50_us "$best")" "$(get p99_us "$best")" \
	    "$(get p999_us "$best")" "$(get errors "$best")" \
	    "$(get cpu_pct "$best")" "$best_dcpu" "$best_dus"
}

rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# Memory of IDLE idle connections (each made one PING first).
idle_test() {
	daemon_start 2 20000
	before=$(rss_kib "$dpid")
	: >"$tmp/idle.out"
	"$LOADGEN" -U "$sock" -c "$IDLE" -I -t 120 >"$tmp/idle.out" 2>&1 &
	lpid=$!
	i=0
	while ! grep -q '^ready' "$tmp/idle.out" && [ $i -lt 600 ]; do
		kill -0 "$lpid" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	if ! grep -q '^ready' "$tmp/idle.out"; then
		cat "$tmp/idle.out" >&2
		fail=1
		rss_per=0
	else
		sleep 1
		after=$(rss_kib "$dpid")
		rss_per=$(( (after - before) * 1024 / IDLE ))
	fi
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	daemon_stop
	echo "idle connections: $IDLE; daemon VmRSS $before KiB before," \
	    "${after:-?} KiB after: $rss_per bytes per connection"
}

# fairness BUDGET REPLY: PING latency on one worker while another
# connection pipelines (depth 16) the most expensive request the
# configuration allows, COUNT of the empty grid to count_max, whose
# reply is REPLY at that budget (ERR budget, or the count).
fairness() {
	daemon_start 1 1024 "budget = $1
count_max = 1000000"
	heavy="COUNT $(printf '0%.0s' $(seq 81)) 1000000"
	"$LOADGEN" -U "$sock" -c 1 -d 16 -r "$heavy" -e "$2" \
	    -t $((SECS + WARM + 2)) -j >"$tmp/heavy.out" 2>&1 &
	hpid=$!
	sleep 1
	out=$("$LOADGEN" -U "$sock" -c 1 -d 1 -t "$SECS" -w "$WARM" -j) ||
	    fail=1
	wait "$hpid" || fail=1
	daemon_stop
	printf '  budget %-9s PING p50 %7s us  p99 %7s us  max %7s us;' "$1" \
	    "$(get p50_us "$out")" "$(get p99_us "$out")" \
	    "$(get max_us "$out")"
	printf ' heavy %s req/s\n' "$(get rps "$(cat "$tmp/heavy.out")")"
}

# bar TEXT SHOWN VALUE OP LIMIT (OP is -ge or -le)
bar() {
	if test "$3" "$4" "$5"; then res="met"; else res="NOT MET"; missed=1; fi
	printf '  %-56s %10s  %s\n' "$1" "$2" "$res"
}

echo "sudokud load benchmark: $(nproc) CPUs, $SECS s per run after" \
    "$WARM s warm-up, best of $REPEAT; loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
row scenario workers via conns depth req/s p50_us p99_us p99.9_us errors \
    gen% sd% sd_us
scenario ping-unix-c1-d1 1 unix 1 1 1
ping1=$best_rps
# The same with daemon and loadgen on one CPU: no wake-up crosses CPUs
# (on the development VM that costs ~30 us each way; doc/bench-daemon.md).
if command -v taskset >/dev/null 2>&1; then
	PIN="taskset -c 0"
	scenario ping-unix-c1-d1-cpu0 1 unix 1 1 1
	ping1pin=$best_rps
	scenario solve17-unix-c1-d32-cpu0 1 unix 1 32 1 -f "$PUZZLES"
	solve1pin=$best_rps
	PIN=
fi
scenario ping-tcp-c1-d1 1 tcp 1 1 1
scenario ping-unix-c2-d32 1 unix 2 32 1
ping2=$best_rps
scenario ping-tcp-c2-d32 1 tcp 2 32 1
[ "$best_rps" -gt "$ping2" ] && ping2=$best_rps
scenario ping-unix-c2-d32-T2 2 unix 2 32 2
[ "$best_rps" -gt "$ping2" ] && ping2=$best_rps
scenario ping-unix-c50-d8 1 unix 50 8 1
scenario ping-tcp-c50-d8 1 tcp 50 8 1
scenario solve17-unix-c1-d32 1 unix 1 32 1 -f "$PUZZLES"
scenario solve17-unix-c2-d32 2 unix 2 32 1 -f "$PUZZLES"
echo "fairness: 1 worker, PING (1 conn, depth 1) beside COUNT <empty> 1000000" \
    "pipelined at depth 16 on another"
fairness 100000 "ERR budget search budget of 100000 guesses exceeded"
fairness 100000000 1000000
idle_test

# SOLVE of the 17-clue set over one connection at depth 32 to a 1-worker
# daemon, against the in-process single-thread rate: ROUNDS alternating
# runs of each, the median of the per-round ratios.
pct=0 inproc=0
if [ -x "$SOLVERBENCH" ]; then
	daemon_start 1 1024
	: >"$tmp/vs.pct"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		v=$("$SOLVERBENCH" -n 3 -s "$PUZZLES" -m any |
		    awk '$3 == "any" { printf "%d", $4 }')
		t0=$(ticks "$dpid")
		out=$("$LOADGEN" -U "$sock" -c 1 -d 32 -t "$SECS" -w "$WARM" \
		    -j -f "$PUZZLES") || fail=1
		t1=$(ticks "$dpid")
		awk -v v="${v:-0}" -v d="$(get rps "$out")" \
		    -v n="$(get replies "$out")" -v t=$((t1 - t0)) -v hz="$HZ" \
		    'BEGIN { if (v > 0) printf "%d %d %d %.2f\n", 100 * d / v,
		    v, d, n ? t * 1e6 / hz / n : 0 }' >>"$tmp/vs.pct"
	done
	daemon_stop
	pct=$(awk '{ print $1 }' "$tmp/vs.pct" | median)
	inproc=$(awk '{ print $2 }' "$tmp/vs.pct" | median)
	awk -v p="$pct" -v n="$ROUNDS" '{ v[NR] = $2; d[NR] = $3; u[NR] = $4 }
	    END { printf "SOLVE 17-clue, 1 worker, 1 conn, depth 32, against" \
		" the in-process rate (solverbench -n 3 -m any), %d " \
		"alternating rounds:\n  median %d%%; rounds (in-process, " \
		"daemon req/s, daemon CPU us/request):", n, p;
		for (i = 1; i <= NR; i++)
			printf " %d/%d/%.2f", v[i], d[i], u[i];
		printf "\n" }' "$tmp/vs.pct"
fi

# sudokud (2 workers) and redis-server answering PING over a Unix
# socket, driven by the same loadgen in the same run, alternating, ROUNDS
# times each; the medians and their ratio.  redis is not a dependency:
# skipped when it is not installed.
versus_redis() {
	c=$1 d=$2
	: >"$tmp/vs.sd"
	: >"$tmp/vs.redis"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		out=$("$LOADGEN" -U "$sock" -c "$c" -d "$d" -t "$SECS" \
		    -w "$WARM" -j) || fail=1
		get rps "$out" >>"$tmp/vs.sd"
		out=$("$LOADGEN" -U "$tmp/redis.sock" -c "$c" -d "$d" \
		    -t "$SECS" -w "$WARM" -j -r PING -e +PONG) || fail=1
		get rps "$out" >>"$tmp/vs.redis"
	done
	vs_sd=$(median <"$tmp/vs.sd") vs_redis=$(median <"$tmp/vs.redis")
	awk -v c="$c" -v d="$d" -v s="$vs_sd" -v r="$vs_redis" \
	    -v all="$(tr '\n' ' ' <"$tmp/vs.sd")/ $(tr '\n' ' ' <"$tmp/vs.redis")" \
	    'BEGIN { printf "  PING %d conn(s) depth %2d: sudokud %8d req/s, " \
	    "redis %8d req/s: %.2f x  (runs: %s)\n", c, d, s, r,
	    r ? s / r : 0, all }'
}
vs1=0 vs2=0
if command -v redis-server >/dev/null 2>&1; then
	redis-server --port 0 --unixsocket "$tmp/redis.sock" --save '' \
	    --appendonly no --daemonize no >/dev/null 2>&1 &
	rpid=$!
	daemon_start 2 1024
	wait_socket "$tmp/redis.sock"
	echo "against redis-server $(redis-server --version |
	    sed 's/.*v=\([^ ]*\).*/\1/'), same loadgen, Unix sockets," \
	    "medians of $ROUNDS alternating runs (sudokud: 2 workers):"
	versus_redis 1 1
	vs1=$(awk -v s="$vs_sd" -v r="$vs_redis" \
	    'BEGIN { printf "%d", r ? 100 * s / r : 0 }')
	versus_redis 2 32
	vs2=$(awk -v s="$vs_sd" -v r="$vs_redis" \
	    'BEGIN { printf "%d", r ? 100 * s / r : 0 }')
	daemon_stop
	kill "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
	rpid=
else
	echo "redis-server not installed: the comparison with it is skipped"
fi

echo "bars:"
bar "PING 1 conn depth 1 Unix >= $BAR_PING1 req/s" "$ping1" "$ping1" \
    -ge $BAR_PING1
bar "PING 2 conns depth 32 >= $BAR_PING2 req/s" "$ping2" "$ping2" \
    -ge $BAR_PING2
bar "SOLVE 17-clue depth 32 1 worker >= $BAR_SOLVE% of in-process" \
    "$pct%" "$pct" -ge $BAR_SOLVE
if [ "$ping1pin" -gt 0 ] && [ "$inproc" -gt 0 ]; then
	echo "  (one CPU for both: PING depth 1 $ping1pin req/s;" \
	    "SOLVE depth 32 $((solve1pin * 100 / inproc))% of in-process)"
fi
if [ "$vs1" -gt 0 ]; then
	bar "PING 1 conn depth 1 >= 100% of redis-server" "$vs1%" "$vs1" \
	    -ge 100
	bar "PING 2 conns depth 32 >= 100% of redis-server" "$vs2%" "$vs2" \
	    -ge 100
fi
bar "daemon RSS per idle connection <= $BAR_RSS bytes" "$rss_per" \
    "$rss_per" -le $BAR_RSS

[ $fail -ne 0 ] && { echo "run-load: wrong replies or errors" >&2; exit 1; }
[ "$STRICT" = 1 ] && [ $missed -ne 0 ] && exit 1
exit 0
