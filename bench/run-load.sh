#!/bin/sh
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
# 3), LOAD_IDLE (idle connections for the memory test, default 10000),
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
IDLE=${LOAD_IDLE:-10000}
STRICT=${LOAD_STRICT:-0}
PIN=		# command prefix for daemon and loadgen (taskset)
ping1pin=0 solve1pin=0
PUZZLES=$PUZZLE_DIR/puzzles2_17_clue

# Bars (doc/bench-daemon.md).
BAR_PING1=60000		# req/s, PING 1 conn depth 1, Unix
BAR_PING2=800000	# req/s, PING 2 conns depth 32
BAR_SOLVE=70		# % of the in-process single-thread rate
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

HZ=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-load.XXXXXX") || exit 2
sock=$tmp/sock
dpid=
fail=0
missed=0

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# daemon_start WORKERS MAXCONN [SOLVER-LINES]
daemon_start() {
	port=$(free_port) || exit 2
	cat >"$tmp/sudokud.conf" <<EOF
[server]
workers = $1
max_connections = $2
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
solve1=$best_rps solve1_us=$best_dus
scenario solve17-unix-c2-d32 2 unix 2 32 1 -f "$PUZZLES"
echo "fairness: 1 worker, PING (1 conn, depth 1) beside COUNT <empty> 1000000" \
    "pipelined at depth 16 on another"
fairness 100000 "ERR budget search budget of 100000 guesses exceeded"
fairness 100000000 1000000
idle_test

# The in-process single-thread rate, best of REPEAT like the scenarios.
inproc=0
r=0
while [ -x "$SOLVERBENCH" ] && [ $r -lt "$REPEAT" ]; do
	r=$((r + 1))
	v=$("$SOLVERBENCH" -n 3 -s "$PUZZLES" -m any |
	    awk '$3 == "any" { printf "%d", $4 }')
	[ "${v:-0}" -gt "$inproc" ] && inproc=$v
done
echo "in-process solver (solverbench -n 3 -s puzzles2_17_clue -m any," \
    "best of $REPEAT): $inproc puzzles/s"
pct=0
if [ "$inproc" -gt 0 ]; then
	pct=$((solve1 * 100 / inproc))
	awk -v r="$inproc" -v d="$solve1_us" -v p="$pct" 'BEGIN {
		printf "SOLVE via the daemon (1 worker, 1 conn, depth 32): " \
		    "%d%% of that rate;\n  daemon CPU %.2f us/request vs " \
		    "%.2f us/puzzle in-process (CPU efficiency %.0f%%)\n",
		    p, d, 1e6 / r, (d > 0 ? 100 * 1e6 / r / d : 0) }'
fi

# The reference the bars were set against, measured here and now.
if command -v redis-server >/dev/null 2>&1 &&
    command -v redis-benchmark >/dev/null 2>&1; then
	redis-server --port 0 --unixsocket "$tmp/redis.sock" --save '' \
	    --daemonize no >/dev/null 2>&1 &
	rpid=$!
	sleep 0.5
	for args in "-c 1 -P 1 -n 50000" "-c 2 -P 32 -n 2000000"; do
		# shellcheck disable=SC2086
		v=$(redis-benchmark -s "$tmp/redis.sock" -t ping_inline \
		    $args -q 2>/dev/null | tr '\r' '\n' |
		    awk '/requests per second/ { print $2 }' | tail -n 1)
		echo "redis-server on this machine now, PING_INLINE $args:" \
		    "${v:-?} req/s"
	done
	kill "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
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
bar "daemon RSS per idle connection <= $BAR_RSS bytes" "$rss_per" \
    "$rss_per" -le $BAR_RSS

[ $fail -ne 0 ] && { echo "run-load: wrong replies or errors" >&2; exit 1; }
[ "$STRICT" = 1 ] && [ $missed -ne 0 ] && exit 1
exit 0
