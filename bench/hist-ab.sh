#!/bin/sh
# SPDX-License-Identifier: ISC
# hist-ab.sh -- what the latency histograms and the card every request
# updates cost (make bench; issue 22): two daemons alike but for
# latency_histograms (1 and 0), driven by bench/loadgen in alternating
# rounds, PING over 2 connections at depth 32 and SOLVE of the 17-clue
# set over 1 at depth 32, both over a Unix socket; the medians of the
# rounds, and the ratio on/off.  Run from the build directory.
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
# run SIDE WHAT: one run, its rate on stdout.
run() {
	if [ "$2" = ping ]; then
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 2 -d 32 -t "$SECS" -w 0.5 \
		    -j) || fail=1
	else
		out=$("$LOADGEN" -U "$tmp/$1.sock" -c 1 -d 32 -t "$SECS" -w 0.5 \
		    -f "$PUZZLE_DIR/puzzles2_17_clue" -j) || fail=1
	fi
	get rps "$out"
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

echo "latency histograms on against off: medians of $ROUNDS alternating" \
    "rounds of $SECS s, $(nproc) CPUs, 2 workers each"
printf '%-32s %12s %12s %7s\n' "load" "on (req/s)" "off (req/s)" "on/off"
for what in ping solve; do
	on=$(median <"$tmp/1.$what") off=$(median <"$tmp/0.$what")
	case $what in
	ping) name="PING, 2 connections, depth 32" ;;
	*) name="SOLVE 17-clue, 1 conn., depth 32" ;;
	esac
	printf '%-32s %12s %12s %7s\n' "$name" "$on" "$off" \
	    "$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", b ? a / b : 0 }')"
done
exit $fail
