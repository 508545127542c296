#!/bin/sh
# SPDX-License-Identifier: ISC
# solve-ab.sh -- builds of sudokud side by side on SOLVE over one
# connection (doc/bench-daemon.md, "Where the rest of a SOLVE goes").
#
#   sh bench/solve-ab.sh [-t] [-r rounds] sudokud-a sudokud-b ...
#
# Each round measures the in-process rate (solverbench -m any on the
# 17-clue set), then runs each daemon in turn: 1 worker, a Unix socket
# (-t: TCP on 127.0.0.1), bench/loadgen at 1 connection, depth 32, for
# LOAD_SECONDS.  The
# machine is shared and noisy, so the variants alternate and medians are
# reported.  Per run: req/s, the daemon's CPU per request, replies per
# write(2) (from /proc/PID/io), voluntary context switches (the worker
# waiting for requests) and the ratio to the in-process rate of the same
# round (the median of those ratios is printed, as the in-process rate
# moves with the machine's load too).  Run from the build directory;
# exits 1 on a wrong reply.
#
# Environment: LOADGEN, SOLVERBENCH (programs), PUZZLE_DIR,
# LOAD_SECONDS (default 3), LOAD_WARMUP (default 1), LOAD_FLAGS (more
# loadgen options, e.g. -P: a client that never sleeps).
set -u

LOADGEN=${LOADGEN:-bench/loadgen}
SOLVERBENCH=${SOLVERBENCH:-bench/solverbench}
PUZZLE_DIR=${PUZZLE_DIR:-$(dirname "$0")/../data}
SECS=${LOAD_SECONDS:-3}
WARM=${LOAD_WARMUP:-1}
FLAGS=${LOAD_FLAGS:-}
PUZZLES=$PUZZLE_DIR/puzzles2_17_clue
rounds=5
tcp=

usage() {
	echo "usage: solve-ab.sh [-t] [-r rounds] sudokud ..." >&2
	exit 2
}

while getopts r:t opt; do
	case $opt in
	r)	rounds=$OPTARG ;;
	t)	tcp=1 ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $rounds in ''|*[!0-9]*|0) usage ;; esac
for d in "$@"; do
	[ -x "$d" ] || { echo "solve-ab: $d: not a program" >&2; exit 2; }
done

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
HZ=$(getconf CLK_TCK)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sudokud-ab.XXXXXX") || exit 2
dpid=
fail=0
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# proc_io PID KEY: a counter of /proc/PID/io.
proc_io() {
	awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/io"
}

# One run of daemon $2 (variant number $1): a line "k rps cpu wr vcs".
run() {
	rm -f "$tmp/sock"
	printf '[server]\nworkers = 1\n[listen]\nunix = %s\n' "$tmp/sock" \
	    > "$tmp/conf"
	to="-U $tmp/sock"
	if [ -n "$tcp" ]; then
		port=$(free_port) || exit 2
		echo "tcp = 127.0.0.1:$port" >> "$tmp/conf"
		to="-p $port"
	fi
	"$2" -d -f "$tmp/conf" 2>"$tmp/log" &
	dpid=$!
	if ! wait_socket "$tmp/sock"; then
		echo "solve-ab: $2 did not start:" >&2
		cat "$tmp/log" >&2
		fail=1
		return
	fi
	t0=$(ticks "$dpid")
	w0=$(proc_io "$dpid" syscw)
	# shellcheck disable=SC2086  # to, FLAGS: words on purpose
	out=$("$LOADGEN" $to -c 1 -d 32 -t "$SECS" -w "$WARM" \
	    -j $FLAGS -f "$PUZZLES")
	t1=$(ticks "$dpid")
	w1=$(proc_io "$dpid" syscw)
	vcs=$(cat /proc/"$dpid"/task/*/status |
	    awk '$1 == "voluntary_ctxt_switches:" { s += $2 } END { print s }')
	kill "$dpid"
	wait "$dpid" 2>/dev/null
	dpid=
	n=$(get replies "$out")
	if [ "$(get errors "$out")" != 0 ] || [ "${n:-0}" -eq 0 ]; then
		echo "solve-ab: $2: wrong or no replies: $out" >&2
		fail=1
		return
	fi
	awk -v k="$1" -v r="$(get rps "$out")" -v n="$n" -v t=$((t1 - t0)) \
	    -v hz="$HZ" -v w=$((w1 - w0)) -v v="$vcs" 'BEGIN {
	    printf "%s %d %.2f %.1f %d\n", k, r, t * 1e6 / hz / n,
	    (w > 0 ? n / w : 0), v }'
}

: > "$tmp/runs"
r=1
while [ $r -le "$rounds" ]; do
	"$SOLVERBENCH" -n 3 -s "$PUZZLES" -m any |
	    awk '$3 == "any" { printf "0 %d 0 0 0\n", $4 }' >> "$tmp/runs"
	k=1
	for d in "$@"; do
		run $k "$d" >> "$tmp/runs"
		k=$((k + 1))
	done
	r=$((r + 1))
done
[ $fail -eq 0 ] || exit 1

inproc=$(awk '$1 == 0 { print $2 }' "$tmp/runs" | median)
echo "SOLVE 17-clue, 1 worker, 1 conn${tcp:+ over TCP}, depth 32," \
    "$rounds alternating rounds of $SECS s${FLAGS:+, loadgen $FLAGS};" \
    "medians; $(awk -F': ' '/^model name/ { print $2; exit }' \
    /proc/cpuinfo)"
printf '%-28s %9s %8s %8s %8s %10s\n' daemon req/s cpu_us repl/wr vcs \
    of_inproc
printf '%-28s %9d\n' in-process "$inproc"
k=1
for d in "$@"; do
	col() {
		awk -v k=$k -v c="$1" '$1 == k { print $c }' "$tmp/runs" |
		    median "$2"
	}
	# each round against that round's in-process rate
	pct=$(awk -v k=$k '$1 == 0 { ip = $2 }
	    $1 == k && ip > 0 { print int($2 * 100 / ip) }' "$tmp/runs" |
	    median)
	printf '%-28s %9d %8s %8s %8d %9d%%\n' "$d" "$(col 2 %d)" \
	    "$(col 3 %.2f)" "$(col 4 %.1f)" "$(col 5 %d)" "$pct"
	echo "  rounds, req/s (of in-process): $(awk -v k=$k '
	    $1 == 0 { ip = $2 }
	    $1 == k && ip > 0 { printf "%d (%d%%) ", $2, $2 * 100 / ip }' \
	    "$tmp/runs")"
	k=$((k + 1))
done
