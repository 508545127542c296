#!/bin/sh
# SPDX-License-Identifier: ISC
# lat-ab.sh -- an instant request's latency beside heavy work, and what
# the heavy work pays for it, builds of sudokud side by side (make
# bench; issue 35; doc/bench-daemon.md, "Latency beside heavy work").
#
#   sh bench/lat-ab.sh [-r rounds] [-b budget] sudokud ...
#
# Each daemon runs with one worker, count_max = 1000000 and the budget
# given (default 100000: each heavy request spends it all and answers
# ERR budget, about 45 a second here).  The heavy load is H connections
# pipelining COUNT <empty grid> 1000000 at depth 16 (H = 1, 4, 16), for
# LAT_SECONDS after LAT_WARMUP, in each mode of LAT_MODES:
#   alone   the heavy load alone;
#   idle    beside one more connection, open and silent (the slice looks
#           for its input after every piece, and finds none);
#   ping    beside one connection sending PING at depth 1 (loadgen -g
#           LAT_GAP between a reply and the next PING, if set): its p50,
#           p99 and maximum, and PINGs a second.
# Each run also gives the heavy replies a second, the worker thread's
# CPU over the run's wall time (on a shared machine it does not always
# get a CPU) and the heavy replies a second of that CPU.  Against the
# alone run of the same round, "us a PING" is the worker's CPU that each
# PING took from the heavy work: (1 - heavy/alone, both a CPU second) /
# PINGs a CPU second.  The daemons take turns within each round, the
# first alternating between rounds; medians of the rounds and their
# spread (lowest-highest).  Run from the build directory; exits 1 on a
# wrong reply.
#
# Environment: LOADGEN, LAT_SECONDS (default 3), LAT_WARMUP (default 1),
# LAT_HEAVY (default "1 4 16"), LAT_MODES (default "alone ping"),
# LAT_GAP (seconds; default none, a closed loop).
set -u

LOADGEN=${LOADGEN:-bench/loadgen}
SECS=${LAT_SECONDS:-3}
WARM=${LAT_WARMUP:-1}
HEAVY=${LAT_HEAVY:-1 4 16}
MODES=${LAT_MODES:-alone ping}
GAP=${LAT_GAP:-}
rounds=5
budget=100000

usage() {
	echo "usage: lat-ab.sh [-r rounds] [-b budget] sudokud ..." >&2
	exit 2
}

while getopts b:r: opt; do
	case $opt in
	b)	budget=$OPTARG ;;
	r)	rounds=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $rounds in ''|*[!0-9]*|0) usage ;; esac
case $budget in ''|*[!0-9]*|0) usage ;; esac
for d in "$@"; do
	[ -x "$d" ] || { echo "lat-ab: $d: not a program" >&2; exit 2; }
done
[ -x "$LOADGEN" ] || { echo "lat-ab: $LOADGEN not built; skipped"; exit 0; }

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
HZ=$(getconf CLK_TCK)
ab_tmp lat
fail=0
heavy="COUNT $(printf '0%.0s' $(seq 81)) 1000000"
if [ "$budget" -lt 100000000 ]; then
	expect="ERR budget search budget of $budget guesses exceeded"
else
	expect=1000000
fi

# worker_ticks PID: CPU ticks of the daemon's busiest thread (the worker).
worker_ticks() {
	for t in /proc/"$1"/task/*/stat; do
		sed 's/.*) //' "$t" | awk '{ print $12 + $13 }'
	done | sort -n | tail -1
}

# beside MODE: what runs beside the heavy load, until it is done; its
# output in $tmp/side.out.
beside() {
	case $1 in
	idle)
		"$LOADGEN" -U "$tmp/sock" -c 1 -I -t 600 >"$tmp/side.out" 2>&1 &
		spid=$!
		sleep "$WARM"
		sleep "$SECS"
		kill "$spid"
		wait "$spid" 2>/dev/null ;;
	ping)
		# shellcheck disable=SC2086  # GAP: an option or nothing
		"$LOADGEN" -U "$tmp/sock" -c 1 -d 1 -t "$SECS" -w "$WARM" \
		    ${GAP:+-g $GAP} -j >"$tmp/side.out" 2>&1 || fail=1 ;;
	*)
		sleep "$WARM"
		sleep "$SECS" ;;
	esac
}

# run K DAEMON H MODE: one run, a line "K H MODE p50 p99 max ping_rps
# heavy_rps cpu_pct heavy_per_cpu_s ping_per_cpu_s" in $tmp/runs.
run() {
	rm -f "$tmp/sock"
	printf '[server]\nworkers = 1\nidle_timeout = 0\n[solver]\n%s\n%s\n' \
	    "budget = $budget" "count_max = 1000000" >"$tmp/conf"
	printf '[listen]\nunix = %s\n[log]\nlevel = warning\n' "$tmp/sock" \
	    >>"$tmp/conf"
	"$2" -f "$tmp/conf" >"$tmp/log" 2>&1 &
	dpid=$!
	pids="$pids $dpid"
	wait_socket "$tmp/sock" || { cat "$tmp/log"; exit 2; }
	: >"$tmp/side.out"
	"$LOADGEN" -U "$tmp/sock" -c "$3" -d 16 -r "$heavy" -e "$expect" \
	    -t "$SECS" -w "$WARM" -x 60 -j >"$tmp/heavy.out" 2>&1 &
	hpid=$!
	t0=$(worker_ticks "$dpid") s0=$(date +%s%N)
	beside "$4"
	t1=$(worker_ticks "$dpid") s1=$(date +%s%N)
	wait "$hpid" || { fail=1; cat "$tmp/heavy.out" >&2; }
	kill "$dpid"
	wait "$dpid" 2>/dev/null
	out=$(cat "$tmp/side.out") hout=$(cat "$tmp/heavy.out")
	[ "$4" = ping ] || out="p50_us=- p99_us=- max_us=- rps=0"
	[ "$(get errors "$hout")" = 0 ] || fail=1
	echo "$1 $3 $4 $(get p50_us "$out") $(get p99_us "$out")" \
	    "$(get max_us "$out") $(get rps "$out") $(get rps "$hout")" \
	    "$(awk -v t=$((t1 - t0)) -v hz="$HZ" -v w=$((s1 - s0)) \
	    -v r="$(get rps "$hout")" -v p="$(get rps "$out")" 'BEGIN {
	    c = t * 1e9 / hz / w; if (c <= 0) c = 1e-9;
	    printf "%d %.1f %.0f", 100 * c, r / c, p / c }')" >>"$tmp/runs"
}

: >"$tmp/runs"
n=$#
r=1
while [ $r -le "$rounds" ]; do
	for h in $HEAVY; do
		for m in $MODES; do
			# the daemons take turns, the first alternating
			i=1
			while [ $i -le "$n" ]; do
				if [ $((r % 2)) -eq 1 ]; then k=$i
				else k=$((n + 1 - i)); fi
				eval "d=\${$k}"
				run "$k" "$d" "$h" "$m"
				i=$((i + 1))
			done
		done
	done
	r=$((r + 1))
done
[ $fail -eq 0 ] || echo "lat-ab: wrong replies or errors" >&2

# col K H MODE FIELD: "median (lowest-highest)" of a field over rounds
col() {
	awk -v k="$1" -v h="$2" -v m="$3" -v f="$4" \
	    '$1 == k && $2 == h && $3 == m { print $f }' "$tmp/runs" |
	    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
	    x = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	    printf "%g (%g-%g)", x, v[1], v[NR] }'
}

# per_ping K H: the worker's us a PING took from the heavy work, by
# round (the nth ping run against the nth alone run), median (spread)
per_ping() {
	awk -v k="$1" -v h="$2" '$1 == k && $2 == h && $3 == "alone" {
	    a[++na] = $10 } $1 == k && $2 == h && $3 == "ping" {
	    b[++nb] = $10; p[nb] = $11 } END { for (i = 1; i <= nb; i++)
	    if (a[i] > 0 && p[i] > 0) print (1 - b[i] / a[i]) / p[i] * 1e6 }' \
	    "$tmp/runs" | sort -n | awk '{ v[NR] = $1 } END {
	    if (NR == 0) { print "-"; exit }
	    x = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	    printf "%.1f (%.1f-%.1f)", x, v[1], v[NR] }'
}

echo "COUNT <empty> 1000000 pipelined at depth 16 on H connections," \
    "budget $budget, 1 worker; beside it PING on one connection" \
    "(depth 1${GAP:+, -g $GAP}); $rounds rounds of $SECS s, medians" \
    "(lowest-highest)"
echo "CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
    "$(nproc) CPUs; loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
k=1
for d in "$@"; do
	echo "$d:"
	for h in $HEAVY; do
		for m in $MODES; do
			printf '  H=%-2s %-5s heavy %s req/s, worker CPU %s %%,' \
			    "$h" "$m" "$(col $k "$h" "$m" 8)" \
			    "$(col $k "$h" "$m" 9)"
			printf ' %s a CPU s\n' "$(col $k "$h" "$m" 10)"
			[ "$m" = ping ] || continue
			printf '           PING p50 %s us, p99 %s us, max %s us,' \
			    "$(col $k "$h" ping 4)" "$(col $k "$h" ping 5)" \
			    "$(col $k "$h" ping 6)"
			printf ' %s req/s; %s us a PING\n' \
			    "$(col $k "$h" ping 7)" "$(per_ping $k "$h")"
		done
	done
	k=$((k + 1))
done
exit $fail
