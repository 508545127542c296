# SPDX-License-Identifier: ISC
# tap.sh -- TAP output for the shell tests, which source it.
#
#	ok NAME			"ok N - NAME"
#	notok NAME [DIAG]	"not ok N - NAME", DIAG as "# " lines; counted
#				in $fails; returns 0, so "cond && ok || notok"
#				and "set -e" both work
#
# The script prints its plan ("1..N") itself and ends with
# "[ $fails -eq 0 ]", so that its exit status says it too.
n=0
fails=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

notok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
	[ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/# /'
	return 0
}
