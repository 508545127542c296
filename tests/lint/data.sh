#!/bin/sh
# SPDX-License-Identifier: ISC
# data.sh -- the puzzle sets in data/ are the files data/README.md
# describes, byte for byte: their SHA-256 sums match the ones listed
# there (TAP).  A missing file is a failure: the sets ship with the
# source, so a complete checkout has them.

srcdir=${top_srcdir:-$(dirname "$0")/../..}
readme=$srcdir/data/README.md
if [ ! -f "$readme" ]; then
	echo "1..1"
	echo "not ok 1 - $readme is missing: incomplete checkout"
	exit 0
fi
# "    <64 hex digits>  <file>" lines
sums=$(sed -n 's/^    \([0-9a-f]\{64\}\)  \([A-Za-z0-9_.-]*\)$/\1 \2/p' \
    "$readme")
set -- $sums
echo "1..$(($# / 2 + 1))"
n=1
if [ $# -ge 6 ]; then
	echo "ok 1 - data/README.md lists $(($# / 2)) SHA-256 sums"
else
	echo "not ok 1 - data/README.md lists $(($# / 2)) SHA-256 sums, not 3"
fi
while [ $# -ge 2 ]; do
	n=$((n + 1))
	want=$1 file=$2
	shift 2
	if [ ! -f "$srcdir/data/$file" ]; then
		echo "not ok $n - data/$file is missing: incomplete checkout"
		continue
	fi
	got=$(sha256sum <"$srcdir/data/$file" | cut -d' ' -f1)
	if [ "$got" = "$want" ]; then
		echo "ok $n - data/$file matches its SHA-256 in data/README.md"
	else
		echo "not ok $n - data/$file: SHA-256 $got, data/README.md says $want"
	fi
done
