#!/bin/sh
# SPDX-License-Identifier: ISC
# pool-ab.sh -- what the GENERATE pool buys (make bench): two daemons
# alike but for generate_pool (4 and 0), one worker each, over a Unix
# socket, driven by bench/loadgen in alternating rounds.  Per level and
# round: "spaced", POOL_REQUESTS requests `GENERATE <level>` (no seed)
# one at a time, each POOL_GAP seconds after the reply to the one
# before (time for the pool to make the next puzzle; before each such
# run the script waits until the pool is full again), and "stream", the
# same request back to back for POOL_SECONDS.  Prints p50 and p99 of
# each, the medians of the rounds, and the share of the pool's answers
# (STATS generate_pool_hits and _misses).  Figures only: it fails on a
# wrong reply or a daemon that does not start, never on speed.  Run from
# the build directory.
#
# Environment: SUDOKUD, LOADGEN, POOL_ROUNDS (default 3), POOL_REQUESTS
# (100), POOL_GAP (0.05), POOL_SECONDS (1), POOL_LEVELS (all five).
set -u

SUDOKUD=${SUDOKUD:-src/sudokud}
LOADGEN=${LOADGEN:-bench/loadgen}
ROUNDS=${POOL_ROUNDS:-3}
NREQ=${POOL_REQUESTS:-100}
GAP=${POOL_GAP:-0.05}
SECS=${POOL_SECONDS:-1}
LEVELS=${POOL_LEVELS:-easy medium hard expert extreme}
SIZE=4

if [ ! -x "$SUDOKUD" ] || [ ! -x "$LOADGEN" ]; then
	echo "pool-ab: $SUDOKUD or $LOADGEN not built; skipped"
	exit 0
fi
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
ab_tmp pool

for side in $SIZE 0; do
	cat >"$tmp/$side.conf" <<EOF2
[server]
workers = 1
idle_timeout = 0
[solver]
generate_pool = $side
[listen]
unix = $tmp/$side.sock
[log]
level = warning
EOF2
	ab_daemon "$side"
done

# stats SOCK: the daemon's STATS, "name value" a line.
stats() {
	python3 - "$1" <<'EOF2'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall(b"STATS\n")
buf = b""
while not buf.endswith(b"END\n"):
    d = s.recv(65536)
    if not d:
        break
    buf += d
for line in buf.decode().splitlines():
    f = line.split()
    if len(f) == 3 and f[0] == "STAT":
        print(f[1], f[2])
EOF2
}

# stat NAME: its value in the stats on stdin.
stat() {
	awk -v n="$1" '$1 == n { print $2 }'
}

# wait_full: until every level of the pool holds SIZE puzzles, at most
# 10 s.
wait_full() {
	_i=0
	while [ $_i -lt 200 ]; do
		_s=$(stats "$tmp/$SIZE.sock")
		_full=1
		for _l in $LEVELS; do
			[ "$(echo "$_s" | stat "generate_pool_$_l")" = $SIZE ] ||
			    _full=0
		done
		[ $_full = 1 ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "pool-ab: the pool did not fill in 10 s" >&2
}

fail=0
# run SIDE LOAD LEVEL: one run; its p50 and p99 appended to the files.
run() {
	if [ "$1" = $SIZE ]; then
		[ "$2" = spaced ] && wait_full
		before=$(stats "$tmp/$1.sock")
	fi
	if [ "$2" = spaced ]; then
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 1 -d 1 -n "$NREQ" \
		    -g "$GAP" -w 0 -r "GENERATE $3" -j) || fail=1
	else
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 1 -d 1 -t "$SECS" \
		    -w 0 -r "GENERATE $3" -j) || fail=1
	fi
	get p50_us "$out" >>"$tmp/$1.$2.$3.p50"
	get p99_us "$out" >>"$tmp/$1.$2.$3.p99"
	if [ "$1" = $SIZE ]; then
		after=$(stats "$tmp/$1.sock")
		for k in hits misses; do
			echo $(($(echo "$after" | stat generate_pool_$k) -
			    $(echo "$before" | stat generate_pool_$k))) \
			    >>"$tmp/$2.$3.$k"
		done
	fi
}

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	# Alternate which goes first, so that drift falls on both alike.
	if [ $((r % 2)) -eq 1 ]; then order="$SIZE 0"; else order="0 $SIZE"; fi
	for side in $order; do
		for load in spaced stream; do
			for level in $LEVELS; do
				run "$side" "$load" "$level"
			done
		done
	done
done

# sum FILE: of its numbers.
sum() {
	awk '{ s += $1 } END { print s + 0 }' "$1"
}

echo "GENERATE <level> (no seed), generate_pool = $SIZE against 0:" \
    "latency in us, medians of $ROUNDS alternating rounds; 1 worker each," \
    "$(nproc) CPUs"
echo "spaced: $NREQ requests one at a time, $GAP s after each reply;" \
    "stream: back to back for $SECS s; from pool: of the pool's side's" \
    "answers"
printf '%-8s %-7s %10s %10s %10s %10s %10s\n' level load "pool p50" \
    "pool p99" "none p50" "none p99" "from pool"
for load in spaced stream; do
	for level in $LEVELS; do
		h=$(sum "$tmp/$load.$level.hits")
		m=$(sum "$tmp/$load.$level.misses")
		printf '%-8s %-7s %10s %10s %10s %10s %9s%%\n' "$level" "$load" \
		    "$(median %.1f <"$tmp/$SIZE.$load.$level.p50")" \
		    "$(median %.1f <"$tmp/$SIZE.$load.$level.p99")" \
		    "$(median %.1f <"$tmp/0.$load.$level.p50")" \
		    "$(median %.1f <"$tmp/0.$load.$level.p99")" \
		    "$(awk -v h="$h" -v m="$m" \
		    'BEGIN { printf "%.0f", h + m ? 100 * h / (h + m) : 0 }')"
	done
done
exit $fail
