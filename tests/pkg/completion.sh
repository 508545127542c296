#!/bin/sh
# SPDX-License-Identifier: ISC
# completion.sh -- the bash completions in completions/ (TAP).
#
# Sources bash-completion and completions/sudokuc and sudokud in bash,
# fills COMP_WORDS as readline would and calls the completion functions:
# the options offered are those sudokuc --help and sudokud --help list,
# -f and -s complete file names, the operands the meta requests and
# file names, and bash-completion's own loader finds each file by the
# command's name.  The commands are sudokuc's verb table's: each one
# sudokuc --help lists is offered as a word, offers after it the options
# sudokuc COMMAND --help lists, and completes file names as operands if
# its usage line takes puzzles.  Runs in bash (re-executed from sh by the first line).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

srcdir=${top_srcdir:-$(dirname "$0")/../..}
# shellcheck source=tests/tap.sh
. "$srcdir/tests/tap.sh"
builddir=${top_builddir:-.}

# bash-completion's main script: BASH_COMPLETION, or where Debian and
# most systems put it.
bc=${BASH_COMPLETION:-}
if [ -z "$bc" ]; then
	for f in "$(pkg-config --variable=prefix bash-completion 2>/dev/null)/share/bash-completion/bash_completion" \
	    /usr/share/bash-completion/bash_completion \
	    /usr/local/share/bash-completion/bash_completion; do
		[ -f "$f" ] && bc=$f && break
	done
fi
if [ -z "$bc" ]; then
	echo "1..0 # SKIP bash-completion not installed (apt-get install bash-completion)"
	exit 0
fi
for p in sudokuc sudokud; do
	if [ ! -x "$builddir/src/$p" ]; then
		echo "1..0 # SKIP $builddir/src/$p not built"
		exit 0
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/completion-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/work/etc" "$tmp/user/completions"
touch "$tmp/work/puzzles.txt" "$tmp/work/sudokud.conf" "$tmp/work/sudokud.sock"
cp "$srcdir/completions/sudokuc" "$srcdir/completions/sudokud" \
    "$tmp/user/completions/"

# The options a --help lists, as the completion should offer them: -x,
# --name= for a required argument, --name for none or an optional one.
# sudokuc's generate has its own, listed after "Options of generate":
# help_options PROGRAM [main|generate].
help_options() {
	"$builddir/src/$1" --help | option_lines "${2:-main}"
}

# option_lines main|generate|all: the options of a --help on stdin: of
# its main part, of its part "Options of generate ...", or all of them.
option_lines() {
	awk -v part="$1" '
	    /^Options of generate/ { section = "generate"; next }
	    { if (part == "all" || (section ? section : "main") == part)
		print }' |
	    sed -n 's/^  \(-[A-Za-z]\), \(--[a-z-]*\)\([=[]\{0,1\}\).*/\1 \2\3/p
		s/^      \(--[a-z-]*\)\([=[]\{0,1\}\).*/\1\2/p' |
	    sed 's/\[$//' | tr ' ' '\n' | sort -u
}

# complete WORD...: what completing the last WORD offers, one per line,
# sorted.  The words are COMP_WORDS as readline makes them: an empty
# last word is written '', and --name=value is --name = value (= is one
# of COMP_WORDBREAKS), which the line has without blanks.
complete_words() {
	(
		cd "$tmp/work" || exit 1
		export BASH_COMPLETION_USER_DIR="$tmp/user"
		# shellcheck disable=SC1090
		. "$bc" >/dev/null 2>&1
		__load_completion "$1" || { echo "LOAD FAILED"; exit 1; }
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE=$(printf '%s ' "$@" | sed 's/ = /=/g; s/ $//')
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		fn=$(complete -p "$1" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" \
		    "${COMP_WORDS[COMP_CWORD - 1]}"
		printf '%s\n' "${COMPREPLY[@]}" | sort
	)
}

# check NAME WANT LINE...: completing LINE offers exactly WANT (words
# separated by blanks, any order).
check() {
	name=$1 want=$(printf '%s\n' $2 | sort)
	shift 2
	got=$(complete_words "$@")
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		notok "$name" "want: $(echo $want)
got:  $(echo $got)"
	fi
}

# The commands of sudokuc's verb table, as sudokuc --help lists them.
cmds=$("$builddir/src/sudokuc" --help |
    sed -n '/^Commands/,/^$/s/^  \([a-z][a-z]*\)  .*/\1/p')
ncmds=$(echo $cmds | wc -w)
echo "1..$((24 + 2 * ncmds))"

# bash-completion's loader finds both files by the commands' names.
for p in sudokuc sudokud; do
	out=$(export BASH_COMPLETION_USER_DIR="$tmp/user"; . "$bc" >/dev/null 2>&1;
	    __load_completion $p && complete -p $p)
	if [ "$out" = "complete -F _$p $p" ]; then
		ok "bash-completion loads completions/$p for $p"
	else
		notok "bash-completion loads completions/$p for $p" "$out"
	fi
done

copts=$(help_options sudokuc)
dopts=$(help_options sudokud)
[ "$(echo "$copts" | wc -l)" -ge 20 ] && [ "$(echo "$dopts" | wc -l)" -ge 10 ] &&
    ok "sudokuc --help and sudokud --help list their options" ||
    notok "sudokuc --help and sudokud --help list their options" "$copts
$dopts"
gopts=$(help_options sudokuc generate)
check "sudokuc -: every option of sudokuc --help" "$copts" sudokuc -
check "sudokuc generate -: and the options of generate" \
    "$(printf '%s\n' $copts $gopts | sort -u)" sudokuc -q generate -
check "sudokuc generate -l: the levels" "easy expert extreme hard medium" \
    sudokuc generate -n 3 -l ''
check "sudokuc rate: file names only" \
    "etc puzzles.txt sudokud.conf sudokud.sock" sudokuc -L rate ''
check "sudokuc generate: no operands" "" sudokuc generate -n 2 ''
check "sudokuc generate --symmetry: the symmetries" \
    "antidiagonal diagonal dihedral flip mirror none rot180 rot90" \
    sudokuc generate --symmetry ''
check "sudokuc shuffle --: --seed after the word" \
    "$(printf '%s\n' $(echo "$copts" | grep -e '^--') --seed= | sort -u)" \
    sudokuc shuffle --
check "sudokuc solutions -: -n after the word" \
    "$(printf '%s\n' $copts -n --number= | sort -u)" sudokuc solutions -
check "sudokuc --: its long options" "$(echo "$copts" | grep -e '^--')" \
    sudokuc --
check "sudokud -: every option of sudokud --help" "$dopts" sudokud -
check "sudokuc -f: the output formats" "grid line pretty spaced" \
    sudokuc -f ''
check "sudokuc --format=: the output formats" "grid line pretty spaced" \
    sudokuc --format = ''
check "sudokuc --errors=: stderr, stdout" "stderr stdout" \
    sudokuc --errors = ''
check "sudokuc operands: meta requests and files" \
    "analyze canon constrain etc generate hint minimize path ping puzzles.txt rate shuffle solutions stats sudokud.conf sudokud.sock version" \
    sudokuc -v ''
check "sudokuc p: path, ping and puzzles.txt" "path ping puzzles.txt" \
    sudokuc -l p
check "sudokuc: no options after an operand" "" sudokuc ping --l
check "sudokuc -s: file names" "etc puzzles.txt sudokud.conf sudokud.sock" \
    sudokuc -s ''
check "sudokud -f: file names" "etc puzzles.txt sudokud.conf sudokud.sock" \
    sudokud -f ''
check "sudokud --file=: file names" "puzzles.txt" sudokud --file = pu

# The verb table's commands (src/client/verb.c): each listed by sudokuc
# --help is a command word to complete, offers after its word the
# options of sudokuc --help and its own (sudokuc COMMAND --help), and
# completes file names as operands if its usage line takes puzzles.  A
# command added to the table and not to completions/sudokuc fails here.
files="etc puzzles.txt sudokud.conf sudokud.sock"
[ "$ncmds" -ge 10 ] && ok "sudokuc --help lists $ncmds commands" ||
    notok "sudokuc --help lists the commands" "$cmds"
check "sudokuc: every command of sudokuc --help, meta requests, files" \
    "$cmds ping stats version $files" sudokuc ''
for c in $cmds; do
	own=$("$builddir/src/sudokuc" "$c" --help | option_lines all)
	check "sudokuc $c -: the options of --help and of $c --help" \
	    "$(printf '%s\n' $copts $own | sort -u)" sudokuc "$c" -
	if "$builddir/src/sudokuc" "$c" --help | head -1 | grep -q '\[puzzle'
	then
		check "sudokuc $c: file names, as its usage takes puzzles" \
		    "$files" sudokuc -q "$c" ''
	else
		check "sudokuc $c: no operands, as its usage takes none" "" \
		    sudokuc "$c" ''
	fi
done
