#!/bin/sh
# SPDX-License-Identifier: ISC
# hist-ab.sh -- what the latency histograms and the card every request
# updates cost (make bench; issue 22): two daemons alike but for
# latency_histograms (1 and 0), driven by bench/loadgen in alternating
# rounds, PING over 2 connections at depth 32 and SOLVE of the 17-clue
# set over 1 at depth 32, both over a Unix socket; the medians of the
# rounds, and the ratio on/off, of requests a second and of the daemon's
# CPU time a request (its user and system ticks over the run: on a
# shared machine the rate moves with the neighbours, the CPU time a
# request much less).  Run from the build directory.
#
# Environment: SUDOKUD, LOADGEN, PUZZLE_DIR, HIST_ROUNDS (default 7),
# HIST_SECONDS (seconds a run, default 2).
set -u

SUDOKUD=${SUDOKUD:-src/sudokud}
LOADGEN=${LOADGEN:-bench/loadgen}
PUZZLE_DIR=${PUZZLE_DIR:-$(dirname "$0")/../data}
ROUNDS=${HIST_ROUNDS:-7}
SECS=${HIST_SECONDS:-2}

if [ ! -x "$SUDOKUD" ] || [ ! -x "$LOADGEN" ]; then
	echo "hist-ab: $SUDOKUD or $LOADGEN not built; skipped"
	exit 0
fi
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
ab_tmp hist

for side in 1 0; do
	cat >"$tmp/$side.conf" <<EOF2
[server]
workers = 2
idle_timeout = 0
latency_histograms = $side
[listen]
unix = $tmp/$side.sock
[log]
level = warning
EOF2
	ab_daemon "$side"
done

fail=0
hz=$(getconf CLK_TCK)
# run SIDE WHAT: one run, "rate ns" on stdout: requests a second (after
# loadgen's warm-up), and the daemon's CPU ns a reply over the whole run,
# warm-up included (loadgen's replies= counts every one).
run() {
	pid=$(cat "$tmp/$1.pid")
	t0=$(ticks "$pid")
	if [ "$2" = ping ]; then
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 2 -d 32 -t "$SECS" -w 0.5 \
		    -j) || fail=1
	else
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 1 -d 32 -t "$SECS" -w 0.5 \
		    -f "$PUZZLE_DIR/puzzles2_17_clue" -j) || fail=1
	fi
	t1=$(ticks "$pid")
	echo "$(get rps "$out") $(awk -v t=$((t1 - t0)) -v hz="$hz" \
	    -v n="$(get replies "$out")" \
	    'BEGIN { printf "%d", n ? t * 1e9 / hz / n : 0 }')"
}

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	# Alternate which goes first, so that drift falls on both alike.
	if [ $((r % 2)) -eq 1 ]; then order="1 0"; else order="0 1"; fi
	for side in $order; do
		for what in ping solve; do
			run "$side" "$what" >>"$tmp/$side.$what"
		done
	done
done

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'
}

echo "latency histograms on against off: medians of $ROUNDS alternating" \
    "rounds of $SECS s, $(nproc) CPUs, 2 workers each"
printf '%-32s %10s %10s %6s %8s %8s %6s\n' "load" "on req/s" "off req/s" \
    "on/off" "on ns/r" "off ns/r" "on/off"
for what in ping solve; do
	on=$(cut -d' ' -f1 <"$tmp/1.$what" | median)
	off=$(cut -d' ' -f1 <"$tmp/0.$what" | median)
	con=$(cut -d' ' -f2 <"$tmp/1.$what" | median)
	coff=$(cut -d' ' -f2 <"$tmp/0.$what" | median)
	case $what in
	ping) name="PING, 2 connections, depth 32" ;;
	*) name="SOLVE 17-clue, 1 conn., depth 32" ;;
	esac
	printf '%-32s %10s %10s %6s %8s %8s %6s\n' "$name" "$on" "$off" \
	    "$(ratio "$on" "$off")" "$con" "$coff" "$(ratio "$con" "$coff")"
done
exit $fail
