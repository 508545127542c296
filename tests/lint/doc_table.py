#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""doc_table.py -- the config key table, sudokud.conf(5) and the shipped
etc/sudokud.conf say the same thing (TAP).

src/daemon/config_table.c holds one row per key: section, name, type, range,
default and whether SIGHUP applies it.  sudokud.conf(5) documents every
key with "Range MIN to MAX, default DEF" and ".Sy reload" or
".Sy restart", and etc/sudokud.conf lists every key, commented out, with
its default (empty when it has none), naming one user and group in its
examples.  A key added to the code but not to the documentation, or a
range or default changed in one place only, fails here.
"""
import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402

SRC = h.TOP_SRCDIR
T = h.Tap()
ok = T.ok


def read(*path):
    with open(os.path.join(SRC, *path), encoding="utf-8") as f:
        return f.read()


def table():
    """(section, name, min, max, default, reloadable) from the C table,
    whose rows are designated initializers: { .section = ..., ... },"""
    text = read("src", "daemon", "config_table.c")
    body = text[text.index("config_table[] = {"):]
    body = body[:body.index("\n};")]
    # Values may name the constants both programs share.
    shared = dict(re.findall(r"(?m)^#define (\w+)\s+(\d+)$",
                             read("src", "common", "defaults.h")))
    keys = []
    for m in re.finditer(r"\{ (\.section = .*?)\},", body, re.S):
        fields = dict(re.findall(r'\.(\w+) = ("[^"]*"|[\w|()]+)',
                                 m.group(1)))
        for f, v in fields.items():
            s = re.fullmatch(r"DEFAULTS_STRING\((\w+)\)", v)
            if s:
                fields[f] = '"%s"' % shared[s.group(1)]
            elif v in shared:
                fields[f] = shared[v]
        dflt = fields.get("def")
        keys.append({"section": fields["section"].strip('"'),
                     "name": fields["name"].strip('"'),
                     "type": fields["type"],
                     "min": fields.get("min", "0"),
                     "max": fields.get("max", "0"),
                     "default": dflt.strip('"') if dflt and
                     dflt.startswith('"') else dflt,
                     "reload": "CONFIG_RELOAD" in
                     fields.get("flags", "").split("|")})
    return keys


def man_entries():
    """name -> (section, text of its .It entry) from sudokud.conf(5)."""
    text = read("man", "sudokud.conf.5.in")
    entries = {}
    section = None
    for block in re.split(r"(?m)^(?=\.Sh |\.It )", text):
        m = re.match(r"\.Sh (\w+)", block)
        if m:
            section = m.group(1).lower()
            continue
        m = re.match(r"\.It Cm (\w+)", block)
        if m:
            entries[m.group(1)] = (section, block)
    return entries


def octal_or_int(s):
    if isinstance(s, int):
        return s
    return int(s, 8) if s.startswith("0") and len(s) > 1 else int(s)


def checks():
    keys = table()
    ok(len(keys) >= 18, "config_table.c parsed: %d keys" % len(keys))
    man = man_entries()
    shipped = read("etc", "sudokud.conf")
    for k in keys:
        name = k["name"]
        ent = man.get(name)
        ok(ent is not None and ent[0] == k["section"],
           "sudokud.conf(5) documents %s in its %s section"
           % (name, k["section"].upper()), "found: %r" % (ent and ent[0]))
        if ent is None:
            continue
        text = ent[1]
        word = "reload" if k["reload"] else "restart"
        ok(re.search(r"(?m)^\.Sy %s" % word, text) is not None,
           "sudokud.conf(5): %s is marked %s" % (name, word), text)
        if k["type"] in ("CONFIG_INT", "CONFIG_SIZE", "CONFIG_U64",
                         "CONFIG_ULONG", "CONFIG_MODE"):
            m = re.search(r"Range (\w+) to (\w+)", text)
            rng = m and tuple(octal_or_int(size_value(v) if v[-1] in "km"
                                           else v) for v in m.groups())
            lo = octal_or_int(k["min"]) if k["min"].isdigit() else None
            hi = octal_or_int(k["max"]) if k["max"].isdigit() else None
            if name == "output_low":
                hi = int(keys_by(keys, "output_high")["max"])
            ok(rng == (lo, hi), "sudokud.conf(5): range of %s is %s to %s"
               % (name, k["min"], k["max"]), "man page says %r" % (rng,))
        if k["default"] is not None and k["name"] not in ("unix",
                                                           "page_dir"):
            m = re.search(r"[Dd]efault(?: |\n\.(?:Cm|Ql) )(-?[\w.+:]*\w)",
                          text)
            ok(m is not None and m.group(1) == k["default"],
               "sudokud.conf(5): default of %s is %s" % (name, k["default"]),
               "man page says %r" % (m and m.group(1)))
        ok(re.search(r"(?m)^;?%s =" % name, shipped) is not None,
           "etc/sudokud.conf lists %s" % name)
        shown = shipped_default(shipped, k)
        ok(shown is True, "etc/sudokud.conf shows %s with its default, "
           "commented out" % name, shown)
    extra = sorted(set(man) - {k["name"] for k in keys})
    ok(not extra, "sudokud.conf(5) documents no key the code lacks",
       "extra: %r" % extra)
    names = set(re.findall(r"\b(?:user|group|unix_group) = (\w+)",
                           shipped))
    ok(len(names) <= 1, "etc/sudokud.conf uses one user and group name "
       "in its examples", "names: %r" % sorted(names))


def size_value(v):
    """A size as sudokud reads it: 256k, 1m or a plain number."""
    m = re.fullmatch(r"(\d+)([km]?)", v)
    if m is None:
        return v
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1048576}[m.group(2)]


def shipped_default(shipped, k):
    """True if etc/sudokud.conf has ";name = DEFAULT" (empty when the key
    has none), else what is wrong.  The repeatable listeners are
    examples, except unix, whose default is the socket in /run; page_dir's
    is the page in /usr/share."""
    name = k["name"]
    lines = re.findall(r"(?m)^;%s =(.*)$" % name, shipped)
    if not lines:
        return "no commented-out line \";%s = ...\"" % name
    if name == "unix":
        want = ["/run/sudokud.sock"]
    elif name == "page_dir":
        want = ["/usr/share/sudokud/www"]
    elif name in ("tcp", "tcp_proxy", "metrics", "tls", "tls_proxy",
                  "http", "http_proxy", "https", "https_proxy"):
        return True
    else:
        want = [k["default"] or ""]
    got = [v.strip() for v in lines]
    if k["type"] == "CONFIG_SIZE":
        got = [size_value(v) for v in got]
        want = [size_value(v) for v in want]
    if got != want:
        return "shown %r, default %r" % (got, want)
    return True


def keys_by(keys, name):
    return next(k for k in keys if k["name"] == name)


if __name__ == "__main__":
    sys.exit(T.main(checks))
