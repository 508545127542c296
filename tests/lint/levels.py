#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""levels.py -- the technique table and the documents that describe it
say the same thing (TAP).

SUDOKU_TECHNIQUES in src/core/sudoku.h is the one table of the logical
solver's techniques: X(ID, name, LEVEL, weight in tenths), in the order
they are tried; SUDOKU_CHAIN_MAX there bounds the chains, and logic.c
hands it to both chain finders.  The documents repeat the table in
prose: doc/rating.md lists every technique with its level and weight,
and doc/protocol.md, doc/rating.md and sudokud(8) each have a level
table ("needs at most ..."), the bands of scores or weights per level
and the chain limit.  A technique moved to another level, a weight
changed or a limit raised in one place only fails here.  Each check is
run once more on texts with a planted mismatch, which it must report,
so a parser that stops finding anything cannot pass unnoticed.
"""
import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402

T = h.Tap(diag_lines=20)
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
FILES = {"sudoku.h": ("src", "core", "sudoku.h"),
         "logic.c": ("src", "core", "logic.c"),
         "protocol.md": ("doc", "protocol.md"),
         "rating.md": ("doc", "rating.md"),
         "sudokud.8": ("man", "sudokud.8.in")}


def read(*path):
    with open(os.path.join(h.TOP_SRCDIR, *path), encoding="utf-8") as f:
        return f.read()


def flat(text):
    """Text with every run of blanks and newlines one space (man pages
    and paragraphs break lines anywhere)."""
    return " ".join(text.split())


# ---- the code ---------------------------------------------------------------

def code_table(texts):
    """[(name, level, weight in tenths)] from SUDOKU_TECHNIQUES."""
    text = texts["sudoku.h"]
    body = text.split("#define SUDOKU_TECHNIQUES(X)", 1)[1]
    body = body.split("\n\n", 1)[0]
    return [(name, level.lower(), int(w)) for _, name, level, w in
            re.findall(r"X\((\w+),\s*(\w+),\s*(\w+),\s*(\d+)\)", body)]


def code_chain_max(texts):
    m = re.search(r"(?m)^#define SUDOKU_CHAIN_MAX\s+(\d+)$",
                  texts["sudoku.h"])
    return int(m.group(1)) if m else None


def check_code(texts):
    errs = []
    techs = code_table(texts)
    if len(techs) < 19:
        errs.append("SUDOKU_TECHNIQUES: %d rows parsed" % len(techs))
    for name, level, w in techs:
        if level not in LEVELS:
            errs.append("%s: level %s" % (name, level))
    levels = [LEVELS.index(lv) for _, lv, _ in techs if lv in LEVELS]
    if levels != sorted(levels):
        errs.append("levels go down the table: %r" % levels)
    if code_chain_max(texts) is None:
        errs.append("no #define SUDOKU_CHAIN_MAX in sudoku.h")
    # The limit the documents state is the one the chain finders get.
    for tid in ("X_CHAIN", "XY_CHAIN"):
        m = re.search(r"\[SUDOKU_TECH_%s\] = \{ \w+, (\w+) \}" % tid,
                      texts["logic.c"])
        if m is None or m.group(1) != "SUDOKU_CHAIN_MAX":
            errs.append("logic.c: the %s finder gets %r, not "
                        "SUDOKU_CHAIN_MAX" % (tid, m and m.group(1)))
    return errs


# ---- the documents ----------------------------------------------------------

def prose_techniques(prose, names):
    """The techniques a level table's prose names: "naked and hidden
    triples and quads", "X-wing", "XY-chains", "trial and error"."""
    s = prose.lower().replace("`", "").replace("-", " ").replace("_", " ")
    s = re.sub(r"\b(\w+?)s\b", r"\1", s)            # plurals
    s = re.sub(r"naked and hidden (\w+)(?: and (\w+))?",
               lambda m: " ".join("naked %s hidden %s" % (w, w)
                                  for w in m.groups() if w), s)
    return [n for n in names
            if re.search(r"\b%s\b" % n.replace("_", " "), s)]


def md_level_rows(text):
    """(level, prose) of the "| level | needs at most |" table."""
    sec = text.split("| level | needs at most |", 1)
    if len(sec) < 2:
        return []
    rows = []
    for ln in sec[1].splitlines()[2:]:
        m = re.fullmatch(r"\| `?(\w+)`? \| (.*) \|", ln)
        if m is None:
            break
        rows.append(m.groups())
    return rows


def man_level_rows(text):
    """The same from the .Bl -column of "Difficulty levels"."""
    sec = text.split(".Ss Difficulty levels", 1)
    if len(sec) < 2:
        return []
    sec = sec[1].split("\n.Ss ", 1)[0]
    return re.findall(r"(?m)^\.It (\w+) Ta (.*)$", sec)


def check_level_rows(texts, doc):
    techs = code_table(texts)
    names = [n for n, _, _ in techs]
    rows = (man_level_rows if doc == "sudokud.8" else md_level_rows)(
        texts[doc])
    errs = []
    if [lv for lv, _ in rows] != list(LEVELS):
        errs.append("levels shown: %r" % [lv for lv, _ in rows])
    for level, prose in rows:
        want = [n for n, lv, _ in techs if lv == level]
        got = prose_techniques(prose, names)
        if got != want:
            errs.append("%s: the document names %r, the code has %r"
                        % (level, got, want))
    return errs


def check_rating_table(texts):
    """doc/rating.md's list: every technique in the code's order, with
    its level and weight, a chain's limit; and its table of hardest
    techniques needed, in that order too."""
    techs = code_table(texts)
    text = texts["rating.md"]
    rows = re.findall(r"(?m)^\| (\d+) \| `(\w+)` \| (\w+) \| (\d+\.\d) \| "
                      r"(.*) \|$", text)
    got = [(int(i), n, lv, int(round(float(w) * 10))) for i, n, lv, w, _
           in rows]
    want = [(i + 1, n, lv, w) for i, (n, lv, w) in enumerate(techs)]
    errs = ["row %r, code %r" % (g, w) for g, w in zip(got, want)
            if g != w]
    if len(got) != len(want):
        errs.append("%d rows, %d techniques" % (len(got), len(want)))
    for _, name, _, _, what in rows:
        limit = re.findall(r"at most (\d+) cells", what)
        if name.endswith("_chain") and limit != [
                str(code_chain_max(texts))]:
            errs.append("%s: limit %r" % (name, limit))
    hardest = re.findall(r"(?m)^\| (\w+) \|(?: (?:[\d,]+ )?\|){3}$",
                         text)
    order = [n for n, _, _ in techs]
    if len(hardest) < 10 or any(n not in order for n in hardest) or \
            hardest != sorted(hardest, key=order.index):
        errs.append("hardest-technique table: %r" % hardest)
    return errs


def check_bands(texts, doc):
    """The score bands "(easy 1.0-1.9, medium ...)" of doc/protocol.md
    and doc/rating.md: one per level, x.0-x.9, holding the weights of
    the level's techniques (a puzzle's score starts at its hardest
    technique's weight).  Only lists in parentheses that start with
    easy: rating.md also gives the scores measured on the puzzle sets
    ("17-clue easy 1.4-1.7"), which are no bands."""
    errs = []
    lists = re.findall(r"\((easy \d\.\d-\d\.\d(?:, \w+ \d\.\d-\d\.\d)*)\)",
                       flat(texts[doc]))
    bands = re.findall(r"\b(\w+) (\d)\.(\d)-(\d)\.(\d)\b", " ".join(lists))
    if not bands or sorted({b[0] for b in bands},
                           key=LEVELS.index) != list(LEVELS):
        errs.append("bands found: %r" % bands)
    for level, a, b, c, d in bands:
        lo, hi = int(a) * 10 + int(b), int(c) * 10 + int(d)
        band = (LEVELS.index(level) + 1) * 10
        if (lo, hi) != (band, band + 9):
            errs.append("%s band %d-%d" % (level, lo, hi))
        for name, lv, w in code_table(texts):
            if lv == level and not lo <= w <= hi:
                errs.append("%s weight %d outside %s's band" % (name, w,
                                                               level))
    return errs


def check_man_weights(texts):
    """sudokud(8): "the weight of the hardest technique (easy 1.0 to
    1.2, ...)": each level's lightest and heaviest technique."""
    m = re.search(r"weight of the hardest technique \(([^)]*)\)",
                  flat(texts["sudokud.8"]))
    if m is None:
        return ["no weight ranges found"]
    got = {}
    for level, lo, hi in re.findall(r"(\w+) (\d\.\d)(?: to (\d\.\d))?",
                                    m.group(1)):
        got[level] = (int(float(lo) * 10 + 0.5),
                      int(float(hi or lo) * 10 + 0.5))
    want = {}
    for _, lv, w in code_table(texts):
        lo, hi = want.get(lv, (w, w))
        want[lv] = (min(lo, w), max(hi, w))
    return [] if got == want else ["the page says %r, the code %r"
                                   % (got, want)]


def check_chain_limit(texts, doc):
    """Every "up to N cells", "at most N cells" and "chains of N cells"
    (in these documents they are all about chains) says
    SUDOKU_CHAIN_MAX; and the document says it at least once."""
    text = flat(texts[doc])
    said = re.findall(r"(?:up to|at most|chains of) (\d+) cells", text)
    want = code_chain_max(texts)
    if not said:
        return ["no chain limit found"]
    return ["says %s cells, SUDOKU_CHAIN_MAX is %s" % (n, want)
            for n in said if int(n) != want]


def problems(texts):
    """Every check: (name, errors), in order."""
    out = [("src/core: SUDOKU_TECHNIQUES parsed, levels never go down, "
            "both chain finders get SUDOKU_CHAIN_MAX", check_code(texts)),
           ("doc/rating.md lists every technique in order with its "
            "level and weight", check_rating_table(texts))]
    for doc in ("protocol.md", "rating.md", "sudokud.8"):
        out.append(("%s: each level's row names exactly its techniques"
                    % doc, check_level_rows(texts, doc)))
    for doc in ("protocol.md", "rating.md"):
        out.append(("%s: score bands x.0-x.9 per level hold the level's "
                    "weights" % doc, check_bands(texts, doc)))
    out.append(("sudokud.8: the weight range of each level",
                check_man_weights(texts)))
    for doc in ("protocol.md", "rating.md", "sudokud.8"):
        out.append(("%s: the chain limit is SUDOKU_CHAIN_MAX" % doc,
                    check_chain_limit(texts, doc)))
    return out


# Mismatches planted in copies of the texts: (file, old, new, the start
# of the check that must report it).
PLANTS = (
    ("rating.md", "| `xy_wing` | hard | 3.4 |", "| `xy_wing` | hard | 3.5 |",
     "doc/rating.md lists"),
    ("sudokud.8", "X-wing, swordfish, XY-wing", "X-wing, XY-wing",
     "sudokud.8: each level"),
    ("protocol.md", "| `expert` | jellyfish, ", "| `expert` | ",
     "protocol.md: each level"),
    ("rating.md", "| hard | naked and hidden triples and quads,",
     "| hard | naked and hidden triples,", "rating.md: each level"),
    ("protocol.md", "XY-chains (up to 12 cells)", "XY-chains (up to 10 "
     "cells)", "protocol.md: the chain limit"),
    ("sudokud.8", "expert 4.0 to 4.6", "expert 4.0 to 4.4",
     "sudokud.8: the weight range"),
    ("sudoku.h", "EXPERT,\t 46)", "EXPERT,\t 56)",
     "protocol.md: score bands"),
    ("sudoku.h", "#define SUDOKU_CHAIN_MAX\t12", "#define SUDOKU_CHAIN_MAX"
     "\t14", "sudokud.8: the chain limit"),
)


def checks():
    texts = {k: read(*p) for k, p in FILES.items()}
    T.problems(texts, problems, PLANTS)


if __name__ == "__main__":
    sys.exit(T.main(checks))
