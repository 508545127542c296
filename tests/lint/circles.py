#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""circles.py -- no circle among the files of one unit (issue 34), TAP.

layers.sh keeps the folders of src/ in order; this keeps the files of a
unit in order within a folder: two files that each use what the other
defines (check.c called check_tools.c's checks, which called check.c's
check_fail()) are one piece of code cut in two, not two layers, and a
reader cannot start with either.  A unit is a file name's stem (check in
check.c, check_tools.c, check.h and check_int.h) and the prefix of each
function a file exports (cands.c defines logic_prepare(): it is of the
unit logic too); a circle is a set of two or more files of one unit of
one folder each of which reaches the others.

File A uses file B when A's function bodies or initializers name a
function or table B defines (its name at the start of a line, the OpenBSD
style sizes.sh also reads, or a table "name[...] = {" outside any
function); a static function is its file's alone; X.h is X.c's
interface, one node with it, its inline functions X.c's code, while
X_int.h, shared by the parts of a unit, is a node of its own.  An
include is not a use: it only brings the names in.

The circles in ALLOWED are still to untie, or kept by design (each says
why); one that is gone is named in a note, to be taken off the list.
The last tests run the same reader on trees planted with circles it must
report and uses it must not count.
"""
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402

T = h.Tap()

# (folder, files, why): circles found only within one of these pass.
ALLOWED = [
    ("src/core", {"cands.c", "logic.c"},
     "by design: logic.h is the logical solver's one private header; "
     "src/core/README.md says why"),
]

# Comments, string and character literals, preprocessor lines: blanked,
# lines kept, so that a name in them is no use and positions stay.
SKIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:\\.|[^\\\n])*",
                  re.S | re.M)
# A name used: not a member (.x, ->x), not a struct, enum or union tag.
NAME = re.compile(r"(?<![\w.>])(?<!struct )(?<!enum )(?<!union )"
                  r"\b([A-Za-z_]\w*)\b")
FUNC = re.compile(r"(?m)^([a-z_]\w*)\(")
TABLE = re.compile(r"(?m)^(?!static\b|extern\b)[a-z][^;(){}=]*?\b([a-z_]\w*)"
                   r"\s*(?:\[[^\]]*\]\s*)*=")


def blank(text):
    return SKIP.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def close(s, i):
    """The index of the brace that closes the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(s)


def depth_at(s, i):
    return s.count("{", 0, i) - s.count("}", 0, i)


def read_file(text):
    """(defined, used): [(name, static)], the names its code uses."""
    s = blank(text)
    defined, used = [], set()
    for m in FUNC.finditer(s):
        brace, semi = s.find("{", m.end()), s.find(";", m.end())
        if brace < 0 or 0 <= semi < brace or depth_at(s, m.start()):
            continue
        head = s[:m.start()].rstrip().rsplit("\n", 1)[-1]
        defined.append((m.group(1), "static" in head.split()))
        used |= set(NAME.findall(s[brace:close(s, brace)]))
    for m in TABLE.finditer(s):
        if depth_at(s, m.start()) == 0:
            defined.append((m.group(1), False))
    for m in re.finditer(r"=\s*\{", s):
        used |= set(NAME.findall(s[m.end():close(s, m.end() - 1)]))
    return defined, used


def node_of(name, names):
    """X.h is X.c's node when there is an X.c: its interface."""
    if name.endswith(".h") and name[:-2] + ".c" in names:
        return name[:-2] + ".c"
    return name


def graph(root):
    """{folder: (edges {a: {b: [names]}}, units {unit: {nodes}})}."""
    out = {}
    src = os.path.join(root, "src")
    for folder in sorted(os.listdir(src)):
        d = os.path.join(src, folder)
        if not os.path.isdir(d):
            continue
        names = sorted(f for f in os.listdir(d) if f.endswith((".c", ".h")))
        read = {}
        for f in names:
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                read[f] = read_file(fh.read())
        out["src/" + folder] = folder_graph(names, read)
    return out


def folder_graph(names, read):
    where = {}
    for f in names:
        for name, static in read[f][0]:
            if not (static and f.endswith(".c")):
                where.setdefault(name, set()).add(f)
    edges, units = {}, {}
    for f in names:
        a = node_of(f, names)
        edges.setdefault(a, {})
        units.setdefault(re.split(r"[_.]", f)[0], set()).add(a)
        for name, static in read[f][0]:
            if not static:
                units.setdefault(name.split("_")[0], set()).add(a)
        for name in read[f][1]:
            for g in where.get(name, ()):
                b = node_of(g, names)
                if b != a and name not in [n for n, _ in read[f][0]]:
                    edges[a].setdefault(b, set()).add(name)
    return edges, units


def sccs(nodes, edges):
    """The strongly connected sets of two or more of nodes (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(frozenset(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def circles(root):
    """[(folder, files, diagnostic lines)]: every circle within a unit."""
    found = {}
    for folder, (edges, units) in graph(root).items():
        for unit in sorted(units):
            for c in sccs(units[unit], edges):
                if (folder, c) in found:
                    continue
                why = ["%s/%s -> %s: %s" % (folder, a, b,
                                            ", ".join(sorted(edges[a][b])[:4]))
                       for a in sorted(c) for b in sorted(edges[a])
                       if b in c]
                found[(folder, c)] = why
    return [(f, set(c), why) for (f, c), why in sorted(
        found.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1])))]


def allowed(folder, files, allow):
    return any(folder == f and files <= a for f, a, _ in allow)


def show(found):
    return "\n".join("%s: %s\n  %s" % (f, " <-> ".join(sorted(c)),
                                       "\n  ".join(why))
                     for f, c, why in found)


def plant(files):
    """A tree of src/FOLDER/NAME files from {path: text}; its root."""
    root = tempfile.mkdtemp(prefix="circles-test.")
    for path, text in files.items():
        p = os.path.join(root, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
    return root


def fn(name, calls="", static=False):
    """A function in OpenBSD style calling calls."""
    return "%s\nint\n%s(void)\n{\n\treturn (%s);\n}\n" % (
        "static" if static else "", name, calls + "()" if calls else "0")


def self_tests():
    # Two files of one unit that call each other, and a third of another
    # unit in a circle with one of them: the first is reported, not the
    # second.  The same static name in two files is no use; a name in a
    # comment or a string is none either.
    root = plant({
        "src/x/foo.c": fn("foo_a", "foo_b") + "/* bar_a() */\n" +
        fn("helper", "helper", static=True) + 'const char *s = "bar_a";\n',
        "src/x/foo.h": "int foo_a(void);\nint foo_b(void);\n",
        "src/x/foo_more.c": fn("foo_b", "foo_a") + fn("foo_c", "bar_a"),
        "src/x/bar.c": fn("bar_a", "foo_c") + fn("helper", "helper",
                                                 static=True),
        "src/x/baz.c": fn("baz_a", "zzz_b"),
        "src/x/baz_two.c": fn("zzz_b") + fn("baz_b", "bar_a"),
    })
    try:
        found = circles(root)
        T.ok([(f, c) for f, c, _ in found] ==
             [("src/x", {"foo.c", "foo_more.c"})],
             "planted: foo.c <-> foo_more.c reported, not foo_more.c <-> "
             "bar.c (two units), nor static or quoted names", show(found))
        # An inline function of a header is its .c's code: a circle
        # through baz.h is baz.c's.
        with open(os.path.join(root, "src/x/baz.h"), "w") as f:
            f.write("static inline int\nbaz_in(void)\n{\n\treturn "
                    "(zzz_b());\n}\n")
        with open(os.path.join(root, "src/x/baz_two.c"), "a") as f:
            f.write(fn("baz_c", "baz_in"))
        found = circles(root)
        T.ok(("src/x", {"baz.c", "baz_two.c"}) in
             [(f, c) for f, c, _ in found],
             "planted: baz.h's inline function, used by baz_two.c, which "
             "it calls: baz.c <-> baz_two.c", show(found))
        T.ok(not allowed("src/x", {"foo.c", "foo_more.c"}, ALLOWED) and
             allowed("src/x", {"foo.c", "foo_more.c"},
                     [("src/x", {"foo.c", "foo_more.c", "foo_x.c"}, "")]),
             "a circle passes only within an allowed set of its folder")
    finally:
        shutil.rmtree(root)


def real_plant():
    # The real src/client, with options_table.c made to call back into
    # options.c (which calls options_getopt() there): exactly that
    # circle, in the unit options, is reported.
    root = tempfile.mkdtemp(prefix="circles-test.")
    try:
        shutil.copytree(os.path.join(h.TOP_SRCDIR, "src", "client"),
                        os.path.join(root, "src", "client"))
        before = circles(root)
        with open(os.path.join(root, "src/client/options_table.c"),
                  "a") as f:
            f.write("\nint\noptions_back(void)\n{\n\treturn "
                    "(options_parse(NULL, 0, NULL));\n}\n")
        after = [x for x in circles(root) if x not in before]
        T.ok(before == [] and [(f, c) for f, c, _ in after] ==
             [("src/client", {"options.c", "options_table.c"})] and
             any("options_table.c -> options.c: options_parse" in w
                 for w in after[0][2]),
             "planted in a copy of src/client: options_table.c calling "
             "options_parse() is the circle options.c <-> options_table.c",
             show(before + after))
    finally:
        shutil.rmtree(root)


def checks():
    g = graph(h.TOP_SRCDIR)
    edges = g["src/client"][0]
    nedges = sum(len(v) for f in g.values() for v in f[0].values())
    T.ok("check_answer" in edges.get("batch.c", {}).get("check.c", ()) and
         "verb_canon" in edges.get("verb.c", {}).get("verb_tools.c", ()) and
         "check_fail" in edges.get("verb_tools.c", {}).get("check.c", ()),
         "the tree was read: %d uses between files, batch.c -> check.c "
         "(check_answer) and verb.c -> verb_tools.c (verb_canon) among "
         "them" % nedges, sorted(edges.get("batch.c", {})))
    found = circles(h.TOP_SRCDIR)
    bad = [x for x in found if not allowed(x[0], x[1], ALLOWED)]
    T.ok(bad == [], "no circle among the files of a unit but the %d "
         "allowed" % len(ALLOWED), show(bad))
    for folder, files, why in ALLOWED:
        if not any(f == folder and c <= files for f, c, _ in found):
            print("# %s: %s is no circle any more: take it off ALLOWED"
                  % (folder, " <-> ".join(sorted(files))))
    T.ok(all(why for _, _, why in ALLOWED), "each allowed circle says why")
    self_tests()
    real_plant()


if __name__ == "__main__":
    sys.exit(T.main(checks))
