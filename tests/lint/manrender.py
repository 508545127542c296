#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""manrender.py -- the man pages as man(1) shows them (issue 34.9).

mandoc -Tlint (manlint.sh) reads the source; man-db renders the pages
with groff, which reads some lines otherwise: a word that is a macro
name on a macro line (".Dl ... \\" then "No such file" lost its "No"),
enclosures that nest (".Ql a Ns Ar s Ql b" quotes b inside a), a word
too long for the line ("can't break line").  So each page made from
man/*.in (the build's man/, the paths filled in) is rendered here as
man(1) renders it on an 80-column terminal: groff -mandoc -Tutf8,
every warning (-ww) an error; and the text it prints is searched for
what such mistakes leave: a quote opened inside a quote, "such file or
directory" without its "No", a roff escape or an mdoc macro name
printed as a word.  The self-checks plant each mistake in a copy of a
page and expect it reported.  Skipped without groff.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402

T = h.Tap()

# What a mistake of the source leaves in the rendered text.
BAD = (
    (re.compile(r"‘[^’]*‘|“[^”]*“"), "a quote opened inside a quote"),
    (re.compile(r"(?<!No )such file or directory"),
     "\"such file or directory\" without its \"No\" (a macro on a "
     "macro line)"),
    (re.compile(r"\\[&e(*]"), "a roff escape printed"),
    (re.compile(r"(?<![\w-])(Ns|Ar|Ql|Dq|Pq|Xr|Fl|Cm) (?=\S)"),
     "an mdoc macro name printed as a word"),
)


def render(text):
    """(warnings, plain text) of a page, as man(1) at 80 columns: grotty
    without escape sequences (-P-cbou), groff's line length 78n."""
    p = subprocess.run(["groff", "-mandoc", "-Tutf8", "-ww", "-rLL=78n",
                        "-P-cbou"], input=text.encode(), capture_output=True,
                       timeout=60)
    return p.stderr.decode(errors="replace"), \
        p.stdout.decode(errors="replace")


def problems(texts):
    out = []
    for name, text in sorted(texts.items()):
        warn, plain = render(text)
        out.append(("%s: groff -mandoc -ww renders it with no warning"
                    % name, [ln for ln in warn.splitlines() if ln]))
        # Words as they read, across the lines they are broken into.
        flat = " ".join(plain.split())
        errs = ["%s: ...%s..." % (why, flat[max(0, m.start() - 40):
                                           m.end() + 40])
                for rx, why in BAD for m in rx.finditer(flat)]
        out.append(("%s: its text has no quote in a quote, lost word, "
                    "escape or macro name" % name, errs))
    return out


def prefix():
    """The build's configured prefix (its Makefile's), or None."""
    try:
        with open(os.path.join(h.TOP_BUILDDIR, "Makefile"),
                  encoding="utf-8") as f:
            for ln in f:
                m = re.match(r"prefix = (\S+)\s*$", ln)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def pages():
    """The built pages, with a prefix longer than /usr/local's written as
    /usr/local: the pages name installed files by their full paths, and
    one under a deep prefix (make distcheck's .../sudokud-0.2.0/_inst)
    is a word too long for the line, a warning of the build's directory,
    not of the page."""
    found = sorted(glob.glob(os.path.join(h.TOP_BUILDDIR, "man", "*.[1358]")))
    pre = prefix()
    out = {}
    for p in found:
        with open(p, encoding="utf-8") as f:
            text = f.read()
        if pre and len(pre) > len("/usr/local"):
            text = text.replace(pre + "/", "/usr/local/")
        out[os.path.basename(p)] = text
    return out


def checks():
    if shutil.which("groff") is None:
        T.skip("the man pages as rendered", "groff is not installed "
               "(scripts/install-deps test installs groff-base)")
        return
    texts = pages()
    T.ok(len(texts) == 4, "the four pages are built: %s"
         % ", ".join(sorted(texts)), "man/ of %s" % h.TOP_BUILDDIR)
    if not texts:
        return
    T.problems(texts, problems, (
        ("sudokuc.1", ".Sh DIAGNOSTICS\n", ".Sh DIAGNOSTICS\n.Dl x: \\\n"
         "No such file or directory\n", "sudokuc.1: its text"),
        ("sudokud.8", ".Sh EXAMPLES\n", ".Sh EXAMPLES\n.Ql a= Ns Ar n "
         "Ql b= Ns Ar n .\n", "sudokud.8: its text"),
        ("sudokud.8", ".Sh EXAMPLES\n", ".Sh EXAMPLES\n.Dl " + "x" * 90
         + "\n", "sudokud.8: groff"),
    ))


if __name__ == "__main__":
    sys.exit(T.main(checks))
