#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""man_protocol.py -- doc/protocol.md and the PROTOCOL section of
sudokud(8) say the same thing, section by section, and what the code has
(TAP).

Both documents say they are the same text; each is written by hand.
What drifts is compared here, read by tests/e2e/protodoc.py: the
sections; the verbs (proto.c's request table) and which replies have
several lines and how each ends; the error codes (the err_ counters of
stats.h, one per code) and each request's list of them; the options
(proto_opts.c's table) and the verbs that take them (the table's .opts);
what version 2 added; the STATS names, in the order stats.c prints them
(tests/e2e/protocol.py holds a running daemon's STATS to the same list).
HELP's text and the level table have their own checks (help.py,
levels.py).  Each check is run once more on a text with a planted
mismatch, which it must report, so a parser that stops finding anything
cannot pass unnoticed.
"""
import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402
import protodoc as pd  # noqa: E402

T = h.Tap(diag_lines=20)
FILES = {"proto.c": ("src", "daemon", "proto.c"),
         "proto_int.h": ("src", "daemon", "proto_int.h"),
         "proto_opts.c": ("src", "daemon", "proto_opts.c"),
         "stats.h": ("src", "daemon", "stats.h"),
         "stats.c": ("src", "daemon", "stats.c"),
         "logic.c": ("src", "core", "logic.c"),
         "md": ("doc", "protocol.md"),
         "man": ("man", "sudokud.8.in")}
DOCS = ("md", "man")
NAME = {"md": "protocol.md", "man": "sudokud(8)"}
# sudokud(8) has as subsections what protocol.md has inside a request's:
# the STATS table, RATE's levels; protocol.md's Versions is the man
# page's introduction.
MAN_ONLY = ("Statistics", "Difficulty levels")
MD_ONLY = ("Versions",)


def read(*path):
    with open(os.path.join(h.TOP_SRCDIR, *path), encoding="utf-8") as f:
        return f.read()


# ---- the code ---------------------------------------------------------------

def code_verbs(texts):
    return re.findall(r'\.name = "(\w+)"', texts["proto.c"])


def code_verb_opts(texts):
    """{verb: {options}} from proto.c's table and PROTO_OPT_* bits."""
    groups = {g: re.findall(r"PROTO_OPT_(\w+)", members) for g, members in
              re.findall(r"#define PROTO_OPT_(\w+)\s+\(([^)]*)\)",
                         texts["proto_int.h"])}
    out = {}
    for verb, row in re.findall(r'\.name = "(\w+)"(.*?)\},',
                                texts["proto.c"], re.S):
        m = re.search(r"\.opts = ([\w\s|]+),", row)
        bits = re.findall(r"PROTO_OPT_(\w+)", m.group(1)) if m else []
        out[verb] = {o.lower() for b in bits for o in groups.get(b, [b])}
    return out


def code_options(texts):
    return re.findall(r'\{ "(\w+)", PROTO_OPT_', texts["proto_opts.c"])


def code_errors(texts):
    return re.findall(r'"err_(\w+)"', texts["stats.h"])


def code_levels(texts):
    m = re.search(r'"easy", .*"extreme"', texts["logic.c"])
    return re.findall(r'"(\w+)"', m.group(0)) if m else []


def code_stats(texts):
    """The STATS names in the order stats_print() prints them, each
    level's generate_pool_ name spelt out; latency_<verb>_... as is."""
    text = texts["stats.c"]
    body = text.split("\nstats_print(", 1)[-1].split("\n}\n", 1)[0]
    lat = text.split("\nstats_print_latency(", 1)[-1].split("\n}\n", 1)[0]
    counters = re.findall(r'X\(\w+, "(\w+)"', texts["stats.h"])
    out = []
    for m in re.finditer(r'STAT ([\w%]+) |stats_print_latency\(', body):
        if m.group(1) == "%s":
            out += counters
        elif m.group(1):
            out += pd.expand_stats([m.group(1).replace("%s", "<level>")],
                                   {"<level>": code_levels(texts)})
        else:
            out += [n.replace("%s", "<verb>") for n in
                    re.findall(r"STAT (\w*%s\w*|\w+) ", lat)]
    return out


# ---- the checks -------------------------------------------------------------

def diff(what, got, want):
    return [] if got == want else ["%s: %r, not %r" % (what, got, want)]


def check_sections(texts):
    md = [t for t, _ in pd.md_sections(texts["md"]) if t not in MD_ONLY]
    man = [t for t, _ in pd.man_subsections(texts["man"])[1:]
           if t not in MAN_ONLY]
    return diff("sudokud(8)'s .Ss", man, md)


def check_verbs(texts, doc):
    reqs = (pd.md_requests if doc == "md" else pd.man_requests)(texts[doc])
    got = [v for v, _ in reqs]
    errs = diff("the requests, sorted", sorted(got), sorted(
        code_verbs(texts)))
    if doc == "man":
        errs += diff("the order", got, [v for v, _ in
                                        pd.md_requests(texts["md"])])
    return errs


def check_replies(texts, doc):
    """The framing's multi-line replies and those an ERR may end, and
    what each request's entry says of its end."""
    multi, cut = pd.framing(texts[doc], doc)
    errs = [] if len(multi) >= 6 else ["framing names %r" % multi]
    if doc == "man":
        errs += diff("the multi-line replies", multi,
                     pd.framing(texts["md"], "md")[0])
        errs += diff("the lists an ERR may end", cut,
                     pd.framing(texts["md"], "md")[1])
    for verb, plain in pd.request_bodies(texts[doc], doc).items():
        end, instead = pd.ends(plain)
        if end != (verb in multi):
            errs.append("%s: says END %s, framing says %s" % (
                verb, end, "several lines" if verb in multi else "one"))
        if instead != (verb in cut):
            errs.append("%s: an ERR ends its lines: entry %s, framing %s"
                        % (verb, instead, verb in cut))
    return errs


def check_errors(texts, doc):
    codes = pd.error_codes(texts[doc], doc)
    errs = diff("the codes, sorted", sorted(codes),
                sorted(code_errors(texts)))
    per = pd.request_errors(texts[doc], doc)
    for verb, listed in per.items():
        errs += ["%s: unknown code %r" % (verb, c) for c in listed
                 if c not in codes]
    if doc == "man":
        errs += diff("the order", codes, pd.error_codes(texts["md"], "md"))
        md = pd.request_errors(texts["md"], "md")
        errs += ["%s's errors: %r, protocol.md %r" % (v, per.get(v), md[v])
                 for v in md if per.get(v) != md[v]]
    return errs


def check_options(texts, doc):
    errs = diff("the options", pd.options(texts[doc], doc),
                code_options(texts))
    solve, more = pd.option_verbs(texts[doc], doc)
    opts = code_verb_opts(texts)
    errs += diff("the requests that solve", sorted(solve), sorted(
        v for v, o in opts.items() if {"budget", "effort"} <= o))
    errs += diff("the others' options", more, {
        v: o for v, o in opts.items() if o and "effort" not in o})
    return errs


def check_new(texts):
    return diff("sudokud(8)'s new verbs", sorted(pd.new_verbs(
        texts["man"], "man")), sorted(pd.new_verbs(texts["md"], "md")))


def check_stats(texts, doc):
    got = pd.stat_names(texts[doc], doc)
    want = code_stats(texts)
    errs = [] if len(want) > 50 else ["stats.c parsed: %r" % want]
    missing = [n for n in want if n not in got]
    extra = [n for n in got if n not in want]
    if missing or extra:
        errs.append("missing %r, not in the code %r" % (missing, extra))
    else:
        errs += diff("the order", got, want)
    return errs


def problems(texts):
    """Every check: (name, errors), in order."""
    out = [("the same sections, in the same order",
            check_sections(texts)),
           ("the same verbs as new in version 2", check_new(texts))]
    for doc in DOCS:
        n = NAME[doc]
        out += [("%s: every request of proto.c's table" % n,
                 check_verbs(texts, doc)),
                ("%s: the replies of several lines and how each ends" % n,
                 check_replies(texts, doc)),
                ("%s: the error codes of stats.h, each request's" % n,
                 check_errors(texts, doc)),
                ("%s: the options of proto_opts.c, the verbs taking them"
                 % n, check_options(texts, doc)),
                ("%s: the STATS names stats.c prints, in its order" % n,
                 check_stats(texts, doc))]
    return out


# Mismatches planted in copies of the texts: (file, old, new, the start
# of the check that must report it).
PLANTS = (
    ("man", ".Ss Output limits", ".Ss Output", "the same sections"),
    ("md", "`SHUFFLE`, `MINIMIZE`", "`MINIMIZE`", "the same verbs as new"),
    ("man", ".It Cm VERSION\n", ".It Cm VERSIONS\n",
     "sudokud(8): every request"),
    ("proto.c", '.name = "PING"', '.name = "PONG"',
     "protocol.md: every request"),
    ("man", "CLIENT LIST ,\n.Cm PATH", "CLIENT LIST ,\n.Cm QUIT",
     "sudokud(8): the replies"),
    ("md", "followed by the `ERR budget` or `ERR deadline` line instead of",
     "followed by the `ERR budget` or `ERR deadline` line and not",
     "protocol.md: the replies"),
    ("stats.h", '"err_busy"', '"err_busier"',
     "sudokud(8): the error codes"),
    ("md", "`multiple`, `budget`, `deadline`.\n\n### `CONSTRAIN",
     "`multiple`, `budget`.\n\n### `CONSTRAIN",
     "sudokud(8): the error codes"),
    ("proto_opts.c", '{ "clues"', '{ "givens"',
     "protocol.md: the options"),
    ("proto.c", ".opts = PROTO_OPT_INFO, .stat = STAT_CMD_SHUFFLE",
     ".opts = PROTO_OPT_SOLVER, .stat = STAT_CMD_SHUFFLE",
     "sudokud(8): the options"),
    ("man", "cmd_constrain , cmd_path ,", "cmd_constrain ,",
     "sudokud(8): the STATS"),
    ("stats.h", '"toolong_lines"', '"long_lines"',
     "protocol.md: the STATS"),
    ("md", "| `uptime` |", "| `upsince` |", "protocol.md: the STATS"),
)


def checks():
    texts = {k: read(*p) for k, p in FILES.items()}
    T.problems(texts, problems, PLANTS)


if __name__ == "__main__":
    sys.exit(T.main(checks))
