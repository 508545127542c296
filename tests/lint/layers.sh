#!/bin/sh
# SPDX-License-Identifier: ISC
# layers.sh -- the folders of src/ include each other only downwards
# (issue 14): client and daemon over common over core (TAP).
#
# Each folder's README.md says what it may call; what a C file calls
# comes in through its quoted #include lines, so those are read here
# and turned into a folder -> folder graph.  A quoted name is found the
# way the compiler finds it: next to the including file first, then
# under src/ (AM_CPPFLAGS has -I$(top_srcdir)/src and nothing else
# in the source tree).  A name that is no file under src/ is not ours
# (autoconf.h is made in the build directory) and is ignored, unless
# it has a '/' in it: then it was meant as one of our folders and
# is a mistake.  <...> includes are the system's and not read at all.
#
# The last four tests plant includes of daemon/ in a copy of a core file
# and run the same checker on it, so the others cannot pass by
# reading nothing.
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"

# includes ROOT: each quoted #include of ROOT/src/**/*.[ch], one line
# with tab-separated fields:
#	inc FROM TO FILE:LINE NAME	resolved; FROM, TO are folders of src/
#	bad - - FILE:LINE NAME		has a '/' but names no file under src/
#	ext - - FILE:LINE NAME		not ours (no '/', no file under src/)
# The list of every file under src/ comes first, up to a "--" line
# (find prints each path with "src/" in front, so never just "--").
includes() {
	(cd "$1" && {
		find src -type f
		echo --
		find src -type f \( -name '*.c' -o -name '*.h' \) \
		    -exec grep -nH \
		    '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' {} + |
		    sort -t: -k1,1 -k2,2n
	}) | awk '
	# norm(P): P without "." and "dir/.." steps; "" if it climbs out
	function norm(p,	k, i, m, out, s) {
		k = split(p, s, "/")
		m = 0
		for (i = 1; i <= k; i++) {
			if (s[i] == "" || s[i] == ".")
				continue
			if (s[i] == "..") {
				if (m == 0)
					return ""
				m--
			} else
				out[++m] = s[i]
		}
		p = ""
		for (i = 1; i <= m; i++)
			p = p (i > 1 ? "/" : "") out[i]
		return p
	}
	# the folder of src/P: its first step, or "src" for src/ itself
	function folder(p) {
		sub(/^src\//, "", p)
		return index(p, "/") ? substr(p, 1, index(p, "/") - 1) : "src"
	}
	!listed && $0 == "--" {
		listed = 1
		next
	}
	!listed {
		have[$0] = 1
		next
	}
	{
		# FILE:LINE:#include "NAME" ...
		file = $0
		sub(/:.*/, "", file)
		rest = substr($0, length(file) + 2)
		line = rest
		sub(/:.*/, "", line)
		name = rest
		sub(/^[^"]*"/, "", name)
		sub(/".*/, "", name)
		dir = file
		sub(/\/[^\/]*$/, "", dir)
		p = norm(dir "/" name)
		if (!(p in have) || p !~ /^src\//)
			p = norm("src/" name)
		if (p in have && p ~ /^src\//)
			printf "inc\t%s\t%s\t%s:%s\t%s\n", folder(file),
			    folder(p), file, line, name
		else
			printf "%s\t-\t-\t%s:%s\t%s\n",
			    index(name, "/") ? "bad" : "ext", file, line, name
	}'
}

# edges FROM_RE TO_RE: the includes between different folders whose
# FROM and TO fields match, as diagnostics
edges() {
	awk -F '\t' -v f="^($1)\$" -v t="^($2)\$" '
	$1 == "inc" && $2 != $3 && $2 ~ f && $3 ~ t {
		printf "%s: include \"%s\" (folder %s -> %s)\n", $4, $5, $2, $3
	}'
}

# forbidden: the includes between folders that are none of the five
# allowed edges, as diagnostics
forbidden() {
	edges '.*' '.*' | grep -v -e '(folder daemon -> common)$' \
	    -e '(folder daemon -> core)$' -e '(folder client -> common)$' \
	    -e '(folder client -> core)$' -e '(folder common -> core)$'
}

# cycles: the includes between folders that lie on a cycle of the
# folder graph, as diagnostics.  Sinks and sources are peeled off until
# none are left; whatever remains lies on a cycle.
cycles() {
	awk -F '\t' '
	$1 == "inc" && $2 != $3 {
		k = $2 SUBSEP $3
		if (!(k in edge))
			edge[k] = sprintf("%s: include \"%s\" " \
			    "(folder %s -> %s)", $4, $5, $2, $3)
		node[$2] = node[$3] = 1
	}
	END {
		do {
			peeled = 0
			for (a in node) {
				outs = ins = 0
				for (k in edge) {
					split(k, e, SUBSEP)
					if (!(e[1] in node) || !(e[2] in node))
						continue
					if (e[1] == a)
						outs++
					if (e[2] == a)
						ins++
				}
				if (outs == 0 || ins == 0)
					gone[++peeled] = a
			}
			# not inside "for (a in node)": unspecified in POSIX
			for (i = 1; i <= peeled; i++)
				delete node[gone[i]]
		} while (peeled)
		for (k in edge) {
			split(k, e, SUBSEP)
			if (e[1] in node && e[2] in node)
				print edge[k]
		}
	}' | sort
}

if [ ! -d "$srcdir/src/core" ]; then
	echo "Bail out! no src/core under $srcdir (set top_srcdir)"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT PIPE TERM

includes "$srcdir" >"$tmp/inc"

echo "1..13"

# 1. The include lines were found and resolved at all: without this a
# broken grep or find would leave every rule below trivially true.
ninc=$(grep -c '^inc' "$tmp/inc")
if [ "$ninc" -gt 0 ] && [ -n "$(edges daemon common <"$tmp/inc")" ]; then
	ok "$ninc quoted includes resolved, daemon -> common among them"
else
	notok "quoted includes resolved, daemon -> common among them" \
	    "$(cat "$tmp/inc")"
fi

# rule NAME FROM_RE TO_RE: no include from FROM into TO
rule() {
	out=$(edges "$2" "$3" <"$tmp/inc")
	if [ -z "$out" ]; then
		ok "$1"
	else
		notok "$1" "$out"
	fi
}

# 2-5. What each README.md says it may call, and never.
rule "src/core includes nothing from common, daemon or client" \
    core 'common|daemon|client'
rule "src/common includes nothing from daemon or client" \
    common 'daemon|client'
rule "src/daemon includes nothing from src/client" daemon client
rule "src/client includes nothing from src/daemon" client daemon

# 6. Every include between folders is one of the five allowed edges.
# This also catches a folder no rule above knows of (a new src/foo).
out=$(forbidden <"$tmp/inc")
if [ -z "$out" ]; then
	ok "only daemon|client -> common|core and common -> core"
else
	notok "only daemon|client -> common|core and common -> core" "$out"
fi

# 7. The folder graph has no cycle.  Test 6 implies it while the
# allowed edges stay as they are; this says so by itself, should they
# ever change.
out=$(cycles <"$tmp/inc")
if [ -z "$out" ]; then
	ok "the folder -> folder include graph is acyclic"
else
	notok "the folder -> folder include graph is acyclic" "$out"
fi

# 8. A name with a '/' is one of our folders' files (a misspelt or
# stale "commn/log.h" would otherwise pass unseen, if a -I elsewhere
# happened to find it).
out=$(awk -F '\t' '$1 == "bad" {
	printf "%s: include \"%s\" (no such file under src/)\n", $4, $5
}' "$tmp/inc")
if [ -z "$out" ]; then
	ok "every include with a '/' names a file under src/"
else
	notok "every include with a '/' names a file under src/" "$out"
fi

# 9. Each folder says what it may call (the rules above come from
# there).
missing=""
for d in core common daemon client; do
	[ -s "$srcdir/src/$d/README.md" ] || missing="$missing src/$d"
done
if [ -z "$missing" ]; then
	ok "src/core, common, daemon and client each have a README.md"
else
	notok "src/core, common, daemon and client each have a README.md" \
	    "no README.md in:$missing"
fi

# 10-13. The checker can fail.  In a copy of core/sudoku.c with an
# include of daemon/frame.h, itself copied with an include of
# core/sudoku.h (a cycle) and of common/log.h (an edge off the cycle),
# the same functions must see core -> daemon at the right line, against
# rule 2 and the allowed edges, and exactly the two edges of the cycle;
# an include of a missing "daemon/nosuch.h" is unresolved.  The files
# included must exist in the copy, or they would not count as ours.
t=$tmp/t/src
mkdir -p "$t/core" "$t/common" "$t/daemon" || exit 1
cp "$srcdir/src/core/sudoku.c" "$srcdir/src/core/sudoku.h" "$t/core/" &&
    cp "$srcdir/src/common/log.h" "$t/common/" &&
    cp "$srcdir/src/daemon/frame.h" "$t/daemon/" || exit 1
at=$(($(grep -c '' "$t/core/sudoku.c") + 1))
printf '#include "daemon/frame.h"\n#include "daemon/nosuch.h"\n' \
    >>"$t/core/sudoku.c"
cat=$(($(grep -c '' "$t/daemon/frame.h") + 1))
printf '#include "core/sudoku.h"\n#include "common/log.h"\n' \
    >>"$t/daemon/frame.h"
includes "$tmp/t" >"$tmp/t/inc"

up="src/core/sudoku.c:$at: include \"daemon/frame.h\" (folder core -> daemon)"
out=$(edges core 'common|daemon|client' <"$tmp/t/inc")
if [ "$out" = "$up" ]; then
	ok "a planted core -> daemon include is reported"
else
	notok "a planted core -> daemon include is reported" "want: $up
got: $out"
fi

out=$(forbidden <"$tmp/t/inc")
if [ "$out" = "$up" ]; then
	ok "the planted include is not an allowed edge"
else
	notok "the planted include is not an allowed edge" "want: $up
got: $out"
fi

down="src/daemon/frame.h:$cat: include \"core/sudoku.h\" (folder daemon -> core)"
want=$(printf '%s\n' "$up" "$down" | sort)
out=$(cycles <"$tmp/t/inc")
if [ "$out" = "$want" ]; then
	ok "the planted cycle core -> daemon -> core is reported"
else
	notok "the planted cycle core -> daemon -> core is reported" \
	    "want: $want
got: $out"
fi

if awk -F '\t' -v at="src/core/sudoku.c:$((at + 1))" '
    $1 == "bad" && $4 == at && $5 == "daemon/nosuch.h" { f = 1 }
    END { exit !f }' "$tmp/t/inc"; then
	ok "a planted include of a missing daemon/nosuch.h is reported"
else
	notok "a planted include of a missing daemon/nosuch.h is reported" \
	    "$(cat "$tmp/t/inc")"
fi

[ $fails -eq 0 ]
