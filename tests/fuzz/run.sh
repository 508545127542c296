#!/bin/sh
# SPDX-License-Identifier: ISC
# run.sh SECONDS CORPUS-DIR TARGET... -- run each libFuzzer target for
# SECONDS from a copy of its seed corpus (CORPUS-DIR/NAME for fuzz_NAME),
# so the tree is never written.  A crash, leak, sanitizer report or a single input
# running over 10 s fails the target: its output and the input that did
# it are kept under fuzz-out/NAME.  One line per target, "NAME: ok, N
# executions in S s" or "NAME: FAILED ...", then "fuzz: N passed, N
# failed"; the exit status is non-zero if any failed.
set -u
secs=$1 corpus=$2
# ASan keeps 256 MB of freed memory in quarantine by default, which with
# its redzones alone took a target that allocates at every input past
# the limit below (fuzz_trust: 658 MB in 30 s; 84 MB with a quarantine
# of 16): a smaller one leaves the limit to growth of our own.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=32
export ASAN_OPTIONS
shift 2
pass=0 fail=0
for t in "$@"; do
	name=${t##*/}
	out=fuzz-out/$name
	rm -rf "$out" && mkdir -p "$out/corpus" || exit 2
	# The seeds of fuzz_NAME are in CORPUS-DIR/NAME.
	seeds=$corpus/${name#fuzz_}
	if [ -d "$seeds" ]; then
		cp "$seeds"/* "$out/corpus/" 2>/dev/null
	fi
	# -rss_limit_mb: a 2 GB default would hide unbounded growth.
	"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=512 \
	    -print_final_stats=1 -artifact_prefix="$out/" \
	    "$out/corpus" >"$out/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" |
	    tail -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "$name: ok, $runs executions in $secs s"
		pass=$((pass + 1))
	else
		echo "$name: FAILED (exit $rc), see $out/log:"
		grep -A 20 'ERROR\|runtime error\|SUMMARY\|deadly signal' \
		    "$out/log" | head -n 40
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
