# SPDX-License-Identifier: ISC
"""
protodoc.py -- the protocol as doc/protocol.md and the PROTOCOL section
of sudokud(8) write it down, read back as data: the sections, the verbs
and their reply forms, the error codes, the options and the STATS names.

Both documents are parsed into the same shapes, so that a test compares
them with each other and with the code (tests/lint/man_protocol.py) or
with what a running daemon says (tests/e2e/protocol.py).  Each function
takes the document's text, so a test can hand it a copy with a planted
mismatch.  The man page is read as its mdoc source: macro lines are
turned into their words (".Cm STATS ," is "STATS,", ".Va cmd_ Ns Ar
verb" is "cmd_<verb>"); nothing needs mandoc.
"""
import re

# mdoc macros that only format or enclose the words after them.
_MACROS = set("It Cm Va Ql Dq Sy Em Li Ic Ev Dv Fl Pa Xr Sx Nm No Pf Ap "
              "Dl Ms Aq Ao Ac Pq Po Pc Op Oo Oc".split())
_PUNCT = set(",.;:)]!?")


def flat(text):
    """Text with every run of blanks one space."""
    return " ".join(text.split())


def _man_line(line):
    """The words an mdoc line prints, roughly: "Ar x" is "<x>", "Ns"
    glues, the quotes and brackets are left out."""
    if not line.startswith("."):
        return line.replace("\\&", "")
    out, glue, arg = [], False, False
    for t in line[1:].split():
        if t in ("Ns", "Ar"):
            glue = glue or t == "Ns"
            arg = t == "Ar"
            continue
        if t in _MACROS:
            continue
        t = t.replace("\\&", "")
        w = "<%s>" % t if arg and t not in _PUNCT else t
        arg = arg and t in _PUNCT
        if (glue or t in _PUNCT) and out:
            out[-1] += w
        else:
            out.append(w)
        glue = False
    return " ".join(out)


def man_plain(text):
    """An mdoc fragment as one line of its words, blocks left out."""
    lines = [ln for ln in text.splitlines()
             if not re.match(r"\.(Bl|El|Bd|Ed|Pp|It)\b", ln)]
    return flat(" ".join(_man_line(ln) for ln in lines))


# ---- sections ---------------------------------------------------------------

def md_sections(text, level="## "):
    """[(title, body)] of the headings at that level, in order."""
    parts = re.split(r"(?m)^%s(.*)$" % re.escape(level), text)
    return list(zip(parts[1::2], parts[2::2]))


def md_section(text, title, level="## "):
    for t, body in md_sections(text, level):
        if t == title:
            return body.split("\n## ", 1)[0]
    return ""


def man_protocol(text):
    """The PROTOCOL section of sudokud(8), up to the next .Sh."""
    sec = text.split("\n.Sh PROTOCOL\n", 1)
    return sec[1].split("\n.Sh ", 1)[0] if len(sec) == 2 else ""


def man_subsections(text):
    """[(title, body)] of the .Ss of PROTOCOL, in order; the text before
    the first is ("", intro)."""
    parts = re.split(r"(?m)^\.Ss (.*)$", man_protocol(text))
    return [("", parts[0])] + list(zip(parts[1::2], parts[2::2]))


def man_subsection(text, title):
    return dict(man_subsections(text)).get(title, "")


def man_items(sec):
    """[(head, body)] of the .It of the first list of sec, not of lists
    nested in it."""
    items, depth = [], 0
    for ln in sec.splitlines():
        if ln.startswith(".Bl "):
            depth += 1
        elif ln.startswith(".El"):
            depth -= 1
            if depth == 0:
                break
        elif depth == 1 and ln.startswith(".It"):
            items.append([ln[4:], []])
        elif items and depth >= 1:
            items[-1][1].append(ln)
    return [(head, "\n".join(body)) for head, body in items]


# ---- verbs and their replies -----------------------------------------------

def _verb_of(words):
    """The first verb among words: SOLVE of "<puzzle>, SOLVE <puzzle>"."""
    m = re.search(r"\b([A-Z]{3,})\b", words)
    return m.group(1) if m else None


def md_requests(text):
    """[(verb, body)] of the ### sections of "Requests", in order."""
    out = []
    for title, body in md_sections(md_section(text, "Requests"), "### "):
        verb = _verb_of(title.replace("`", " "))
        if out and out[-1][0] == verb:
            continue
        out.append((verb, body))
    return out


def man_requests(text):
    """The same from the list of .Ss Requests."""
    return [(_verb_of(_man_line("." + head)), body)
            for head, body in man_items(man_subsection(text, "Requests"))]


def multiline(plain):
    """The verbs a framing text says reply in several lines: "except
    STATS, HELP, SLOWLOG GET, ... and SOLUTIONS, whose reply is ..."."""
    m = re.search(r"except (?:those to )?(.*?),? (?:whose|which) "
                  r"(?:reply is|replies are|are) several lines", plain)
    if m is None:
        return []
    return [_verb_of(w) for w in re.split(r",\s*|\s+and\s+", m.group(1))]


def cut_short(plain):
    """The verbs whose list a framing text says an ERR line may end."""
    return re.findall(r"\b([A-Z]{3,}) list cut short", plain)


def framing(text, doc):
    """(multi-line verbs, verbs an ERR may end after lines) of the
    framing section of doc ("md" or "man")."""
    if doc == "md":
        plain = flat(md_section(text, "Framing").replace("`", ""))
    else:
        plain = man_plain(man_subsection(text, "Framing"))
    return multiline(plain), cut_short(plain)


def request_bodies(text, doc):
    """{verb: plain text of its entry}."""
    if doc == "md":
        return {v: flat(b.replace("`", "")) for v, b in md_requests(text)}
    return {v: man_plain(b) for v, b in man_requests(text)}


def ends(plain):
    """How an entry says its reply ends: (with END, an ERR instead)."""
    return (re.search(r"\bEND\b", plain) is not None,
            re.search(r"instead of END\b", plain) is not None)


# ---- errors -----------------------------------------------------------------

def error_codes(text, doc):
    """The codes of the error table (md) or list (man), in order."""
    if doc == "md":
        return re.findall(r"(?m)^\| `(\w+)` \|", md_section(text, "Errors"))
    return [_man_line("." + head)
            for head, _ in man_items(man_subsection(text, "Errors"))]


def _ref(text):
    """The verb of "as for SOLVE" or "as HINT's", or []."""
    m = re.search(r"\bas (?:for )?([A-Z]{3,})\b", text)
    return m.group(1) if m else []


def _md_errors(body):
    """The codes of an "Errors: `syntax`, ..." paragraph, or the verb
    it refers to ("Errors: as for SOLVE.")."""
    for para in re.split(r"\n\s*\n", body):
        if para.startswith("Errors"):
            return re.findall(r"`([a-z]{3,})`", para) or _ref(para)
    return []


def _man_errors(body):
    lines = body.split("\nErrors", 1)
    if len(lines) < 2:
        return []
    lines = lines[1].split("\n.Bd", 1)[0].split("\n.It", 1)[0]
    codes = [w.strip(",.") for ln in lines.splitlines()
             if ln.startswith(".Cm ") for w in ln[4:].split()
             if re.fullmatch(r"[a-z]+[,.]?", w)]
    return codes or _ref(man_plain(lines))


def request_errors(text, doc):
    """{verb: [codes]} of each request's "Errors:" (none: [])."""
    if doc == "md":
        raw = {v: _md_errors(b) for v, b in md_requests(text)}
    else:
        raw = {v: _man_errors(b) for v, b in man_requests(text)}
    out = {}
    for verb, codes in raw.items():
        if isinstance(codes, str):
            codes = raw.get(codes) or ["<%s's>" % codes]
        out[verb] = list(dict.fromkeys(codes))
    return out


# ---- options ----------------------------------------------------------------

def options(text, doc):
    """The option names of the table (md) or list (man), in order."""
    if doc == "md":
        return re.findall(r"(?m)^\| `(\w+)=", md_section(text, "Options"))
    return [m.group(1) for head, _ in
            man_items(man_subsection(text, "Options"))
            for m in [re.match(r"Cm (\w+)=", head)] if m]


def option_verbs(text, doc):
    """Who takes options, as the intro says: ([the verbs that solve],
    {another verb: {its options}})."""
    if doc == "md":
        plain = flat(md_section(text, "Options").replace("`", ""))
    else:
        plain = man_plain(man_subsection(text, "Options"))
    m = re.search(r"The requests that solve(.*?)take options", plain)
    if m is None:
        return [], {}
    solve, _, others = m.group(1).partition(";")
    more, verb = {}, None
    for w in re.findall(r"\b[A-Z]{3,}\b|\b[a-z]+=", others):
        if w.endswith("="):
            more.setdefault(verb, set()).add(w[:-1])
        else:
            verb = w
    return re.findall(r"\b[A-Z]{3,}\b", solve), more


# ---- STATS ------------------------------------------------------------------

def stat_names(text, doc):
    """The names of the STATS table (md) or of .Ss Statistics (man), in
    order; a family is its pattern, as "latency_<verb>_p50_usec"."""
    if doc == "md":
        sec = text.split("\n### `STATS`", 1)[-1].split("\n### ", 1)[0]
        names = []
        for row in re.findall(r"(?m)^\| (`.*?) \|", sec):
            names += re.findall(r"`([\w<>]+)`", row)
        return names
    names = []
    for head, body in man_items(man_subsection(text, "Statistics")):
        listed = [w.strip(",.") for ln in body.splitlines()
                  if ln.startswith(".Va ") for w in ln[4:].split()
                  if re.fullmatch(r"\w+[,.]?", w)]
        heads = [w.strip(",") for w in _man_line("." + head).split()]
        # ".It Va cmd_ Ns Ar verb" heads the list of the cmd_ names.
        fam = [w for w in heads if "<" in w]
        listed = list(dict.fromkeys(listed))
        if fam and listed and all(n.startswith(fam[0].split("<")[0])
                                  for n in listed):
            heads = listed
        names += heads
    return names


def expand_stats(names, families):
    """names with each run of "x_<key>_y" names replaced by its members,
    a value at a time, given {"<key>": [values]}: latency_<verb>_p50_usec
    and latency_<verb>_p99_usec are the pair of each verb in turn."""
    out, run = [], []
    for n in names + [""]:
        m = re.search(r"<\w+>", n)
        key = m.group(0) if m and m.group(0) in families else None
        if run and (key is None or key not in run[0]):
            k = re.search(r"<\w+>", run[0]).group(0)
            out += [r.replace(k, v) for v in families[k] for r in run]
            run = []
        if key:
            run.append(n)
        elif n:
            out.append(n)
    return out


# ---- what version 2 added ---------------------------------------------------

def new_verbs(text, doc):
    """The verbs the versions text says version 2 adds."""
    if doc == "md":
        plain = flat(md_section(text, "Versions"))
        m = re.search(r"What is new(.*?)Only `HELP`", plain)
        return re.findall(r"`([A-Z]{3,})`", m.group(1)) if m else []
    intro = man_subsections(text)[0][1]
    m = re.search(r"\nIt adds(.*?)\n\.Cm HELP\nlists", intro, re.S)
    cm = [ln for ln in m.group(1).splitlines() if ln.startswith(".Cm ")] \
        if m else []
    return re.findall(r"\b[A-Z]{3,}\b", " ".join(cm))
