#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
page.py -- the page of the HTTP listener (issue 33 item 4) in a real
browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver and python3-selenium, from scripts/install-deps test)
loads www/ from a running daemon, generates, enters a wrong digit and
sees it marked, takes a hint and applies it, steps the whole PATH
forwards and backwards, solves, rates, shows the canonical form, loads
a pasted grid and a typed one; after each, the grid's DOM is read and
checked by the test's own oracle (reference.py: a naive solver and a
grid checker that share nothing with src/core), the page's words
against what the line protocol answers on the same daemon.  Every
request the page makes is read from the browser's network log: each is
a file of the page or a resource of doc/http.md, nothing else.
Screenshots at a desktop and a phone size are saved in the build
directory (page-desktop.png, page-phone.png; doc/page.png is one).
No step waits on the machine's speed: each waits for what the page
shows, within a bound far above any machine's time.
"""

import http.client
import json
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import reference as ref                                 # noqa: E402

T = h.Tap()
ONE = (None,)
WWW = os.path.join(h.TOP_SRCDIR, "www")
NEEDS = "scripts/install-deps test installs it"
WAIT = 60                   # seconds: a bound, not an expectation
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
# The page's own files; anything else it fetches must be the API's.
FILES = {"/", "/index.html", "/app.js", "/style.css", "/favicon.svg"}
VERBS = {"hello", "solve", "count", "hint", "path", "rate", "canon",
         "generate"}
CLASSIC = h.CLASSIC
SHOTS = os.environ.get("PAGE_SHOTS", os.getcwd())


class PageDaemon(h.Daemon):
    """A daemon with an HTTP listener serving the source tree's www/."""

    def __init__(self, http_conf="", **kw):
        self.http_port = h.free_port()
        super().__init__(extra_conf="[listen]\nhttp = 127.0.0.1:%d\n"
                         "[http]\npage_dir = %s\n%s"
                         % (self.http_port, WWW, http_conf), **kw)

    def url(self, path="/"):
        return "http://127.0.0.1:%d%s" % (self.http_port, path)

    def get(self, path):
        c = http.client.HTTPConnection("127.0.0.1", self.http_port,
                                       timeout=10)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            c.close()

    def line(self, request, secret=None):
        """The line protocol's reply to request (after AUTH secret)."""
        k = self.connect("unix")
        try:
            if secret is not None:
                eq(k.req("AUTH " + secret), "OK", "AUTH")
            return k.req(request)
        finally:
            k.close()

    def block(self, request):
        k = self.connect("unix")
        try:
            return k.block(request)
        finally:
            k.close()


# ---- the browser ------------------------------------------------------------

class Browser:
    """One headless Chromium for the file, with the flags a closed
    network needs (no background connections, no first-run, no GPU)."""
    drv = None
    profile = None

    @classmethod
    def get(cls):
        if cls.drv is None:
            cls.drv = cls.start()
        return cls.drv

    @staticmethod
    def start():
        for path in (CHROMIUM, DRIVER):
            if not os.access(path, os.X_OK):
                raise h.Fail("%s is not installed (%s)" % (path, NEEDS))
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            raise h.Fail("python3-selenium is not installed (%s)" % NEEDS)
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        Browser.profile = tempfile.mkdtemp(prefix="sudokud-page.")
        prof = os.path.join(Browser.profile, "profile")
        for a in ("--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-quic", "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--user-data-dir=" + prof):
            o.add_argument(a)
        o.set_capability("goog:loggingPrefs",
                         {"browser": "ALL", "performance": "ALL"})
        drv = webdriver.Chrome(service=Service(DRIVER), options=o)
        drv.set_window_size(1280, 900)
        return drv

    @classmethod
    def quit(cls):
        if cls.drv is not None:
            cls.drv.quit()
            cls.drv = None
        if cls.profile is not None:
            shutil.rmtree(cls.profile, ignore_errors=True)


def by_id(drv, ident):
    from selenium.webdriver.common.by import By
    return drv.find_element(By.ID, ident)


def wait(drv, cond, what):
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import TimeoutException
    try:
        return WebDriverWait(drv, WAIT).until(lambda d: cond(d))
    except TimeoutException:
        raise h.Fail("the page never showed %s; status %r" % (
            what, by_id(drv, "status").text))


def click_and_wait(drv, button, cond, what):
    """Click; wait until the page has run the action (no aria-busy) and
    shows what cond looks for."""
    by_id(drv, button).click()
    return wait(drv, lambda d: d.execute_script(
        "return !document.body.hasAttribute('aria-busy')") and cond(d),
        what)


def status(drv):
    return by_id(drv, "status").text


def grid(drv):
    """The 81 cells as the DOM holds them, '.' for an empty one."""
    vals = drv.execute_script(
        "return [...document.querySelectorAll('#board input')]"
        ".map(i => i.value)")
    eq(len(vals), 81, "cells in the grid")
    for v in vals:
        check(v == "" or (len(v) == 1 and v in "123456789"),
              "a cell holds %r" % v)
    return "".join(v or "." for v in vals)


def cell_classes(drv, cls):
    """The names of the cells whose td has class cls."""
    return drv.execute_script(
        "return [...document.querySelectorAll('#board td.' + arguments[0]"
        " + ' input')].map(i => i.dataset.cell)", cls)


def cell_input(drv, name):
    from selenium.webdriver.common.by import By
    return drv.find_element(By.CSS_SELECTOR,
                            "#board input[data-cell='%s']" % name)


def name_of(i):
    return "r%dc%d" % (i // 9 + 1, i % 9 + 1)


def solution_of(puzzle):
    n, sol, done = ref.ref_search(puzzle, 2)
    check(done and n == 1, "the reference finds %d solutions of %s"
          % (n, puzzle))
    return sol


def agrees(g, sol):
    """Every filled cell of g is the solution's digit there."""
    bad = [name_of(i) for i in range(81) if g[i] != "." and g[i] != sol[i]]
    check(not bad, "cells that disagree with the solution: %s" % bad)


def js_errors(drv):
    """Console errors but a failed load of an API resource (an error
    reply is a 4xx by design, which Chromium logs as a failed load)."""
    return [e["message"] for e in drv.get_log("browser")
            if e["level"] == "SEVERE" and
            not ("/v2/" in e["message"] and "status of 4" in e["message"])]


def requested(drv):
    """The URLs the page asked for since the last call (network log)."""
    urls = []
    for e in drv.get_log("performance"):
        m = json.loads(e["message"])["message"]
        if m.get("method") == "Network.requestWillBeSent":
            urls.append(m["params"]["request"]["url"])
    return urls


def open_page(drv, d):
    drv.set_window_size(1280, 900)
    drv.get(d.url("/"))
    wait(drv, lambda d_: "Generate a puzzle" in status(d_), "it is ready")


def generate(drv, level, symmetry, seed):
    from selenium.webdriver.support.ui import Select
    Select(by_id(drv, "level")).select_by_value(level)
    Select(by_id(drv, "symmetry")).select_by_value(symmetry)
    by_id(drv, "seed").clear()
    by_id(drv, "seed").send_keys(str(seed))
    click_and_wait(drv, "generate", lambda d: "A new" in status(d),
                   "a generated puzzle")
    return grid(drv)


def rot180(p):
    return all((p[i] == ".") == (p[80 - i] == ".") for i in range(81))


# ---- cases ------------------------------------------------------------------

@T.case("the page's files: types, CSP, nosniff; page = 0 serves none",
        ONE, own=True)
def t_files(c):
    with PageDaemon() as d:
        st, hd, body = d.get("/")
        eq(st, 200, "GET /")
        check(hd.get("Content-Type", "").startswith("text/html"),
              "Content-Type of /: %r" % hd.get("Content-Type"))
        check("default-src 'self'" in hd.get("Content-Security-Policy", ""),
              "the page's CSP: %r" % hd.get("Content-Security-Policy"))
        eq(hd.get("X-Content-Type-Options"), "nosniff", "nosniff")
        with open(os.path.join(WWW, "index.html"), "rb") as f:
            eq(body, f.read(), "/ is www/index.html")
        for path, ctype in (("/app.js", "javascript"), ("/style.css",
                            "text/css"), ("/favicon.svg", "image/svg+xml")):
            st, hd, body = d.get(path)
            eq(st, 200, "GET " + path)
            check(ctype in hd.get("Content-Type", ""), "Content-Type of "
                  "%s: %r" % (path, hd.get("Content-Type")))
        for path in ("/nothing.js", "/../etc/passwd", "/.hidden"):
            eq(d.get(path)[0], 404, "GET " + path)
    with PageDaemon(http_conf="page = 0\n") as d:
        eq(d.get("/")[0], 404, "GET / with page = 0")
        eq(d.get("/app.js")[0], 404, "GET /app.js with page = 0")
        eq(d.get("/v2/ping")[0], 200, "the API with page = 0")


@T.case("generate by level and symmetry; a wrong digit marked; a hint "
        "applied; solve (the DOM checked by the reference)", ONE,
        own=True, timeout=240)
def t_play(c):
    drv = Browser.get()
    with PageDaemon() as d:
        open_page(drv, d)
        requested(drv)
        p = generate(drv, "easy", "rot180", 42)
        want = d.line("GENERATE easy 42 symmetry=rot180")
        eq(p, want, "the grid against the line protocol's GENERATE")
        check(rot180(p), "the givens are not symmetric under rot180: " + p)
        sol = solution_of(p)
        givens = [i for i in range(81) if p[i] != "."]
        ro = drv.execute_script(
            "return [...document.querySelectorAll('#board input')]"
            ".map(i => i.readOnly)")
        eq([i for i in range(81) if ro[i]], givens, "read-only cells")

        # A wrong digit and a right one, typed; Check marks the wrong.
        blank = [i for i in range(81) if p[i] == "."]
        wrong_at, right_at = blank[0], blank[1]
        bad = next(x for x in "123456789" if x != sol[wrong_at])
        cell_input(drv, name_of(wrong_at)).send_keys(bad)
        cell_input(drv, name_of(right_at)).send_keys(sol[right_at])
        g = grid(drv)
        eq((g[wrong_at], g[right_at]), (bad, sol[right_at]), "typed")
        click_and_wait(drv, "check", lambda d_: "wrong" in status(d_),
                       "the wrong cell reported")
        eq(cell_classes(drv, "wrong"), [name_of(wrong_at)], "marked wrong")
        eq(cell_input(drv, name_of(wrong_at)).get_attribute("aria-invalid"),
           "true", "aria-invalid of the wrong cell")
        check(name_of(wrong_at) in status(drv), "status: " + status(drv))

        # Emptied with the keyboard: no mistakes left.
        cell_input(drv, name_of(wrong_at)).send_keys("\b")
        click_and_wait(drv, "check", lambda d_: "No mistakes" in status(d_),
                       "no mistakes")
        eq(cell_classes(drv, "wrong"), [], "nothing marked wrong")

        # A hint: its cells highlighted, its placement applied.
        before = grid(drv)
        click_and_wait(drv, "hint", lambda d_: ":" in status(d_),
                       "a hint")
        hint_line = d.line("HINT %s %s" % (p, before))
        technique, actions, explanation = hint_line.split(" ", 2)
        check(explanation in status(drv), "the hint's explanation %r in "
              "%r" % (explanation, status(drv)))
        named = [n for n in ref.re.findall(r"r[1-9]c[1-9]", explanation)]
        check(set(named) <= set(cell_classes(drv, "hint")) |
              set(cell_classes(drv, "place")),
              "cells the hint names %s not highlighted" % named)
        by_id(drv, "apply").click()
        after = grid(drv)
        placed = [i for i in range(81) if before[i] != after[i]]
        check(placed, "the hint placed nothing: " + hint_line)
        agrees(after, sol)

        # Solve: the grid is a solution of the puzzle, givens kept.
        click_and_wait(drv, "solve", lambda d_: "Solved" in status(d_),
                       "the solution")
        done = grid(drv)
        eq(ref.solution_problem(p, done), None, "the solved grid")
        eq(js_errors(drv), [], "console errors")
        for url in requested(drv):
            path = "/" + url.split("/", 3)[3]
            check(path in FILES or path.split("?")[0][len("/v2/"):]
                  in VERBS and path.startswith("/v2/"),
                  "the page asked for %s" % url)


@T.case("step the whole PATH forwards and backwards; the DOM at each "
        "step agrees with the solution", ONE, own=True, timeout=300)
def t_path(c):
    drv = Browser.get()
    with PageDaemon() as d:
        open_page(drv, d)
        p = generate(drv, "medium", "none", 7)
        sol = solution_of(p)
        lines = d.block("PATH " + p)     # the steps, the summary
        steps = lines[:-1]
        check(steps and not any(x.startswith("nostep") for x in steps),
              "a medium puzzle's path ends in logic: %s" % lines[-3:])
        click_and_wait(drv, "path-load", lambda d_: "Start:" in by_id(
            d_, "path-info").text, "the path's start")
        eq(grid(drv), p, "the path starts from the puzzle")
        filled = [p.count(".")]
        # The picture: the first step that eliminates, pencil marks shown.
        shot = next((n for n, x in enumerate(steps, 1)
                     if "-" in x.split(" ")[1]), 5)
        for n in range(1, len(steps) + 1):
            by_id(drv, "path-next").click()
            if n == shot:
                os.makedirs(SHOTS, exist_ok=True)
                drv.save_screenshot(os.path.join(SHOTS, "page-desktop.png"))
            info = by_id(drv, "path-info").text
            check(info.startswith("Step %d of %d" % (n, len(steps))),
                  "step %d: %r" % (n, info))
            expl = steps[n - 1].split(" ", 2)[2]
            check(expl in info, "step %d's explanation %r in %r"
                  % (n, expl, info))
            g = grid(drv)
            agrees(g, sol)
            filled.append(g.count("."))
        eq(grid(drv), sol, "the last step's grid")
        check(all(a >= b for a, b in zip(filled, filled[1:])),
              "blanks went up along the path: %s" % filled)
        eq(by_id(drv, "path-next").is_enabled(), False, "Next at the end")
        for n in range(len(steps) - 1, len(steps) - 6, -1):
            by_id(drv, "path-prev").click()
            eq(grid(drv).count("."), filled[n], "blanks back at step %d" % n)
        by_id(drv, "path-first").click()
        eq(grid(drv), p, "First: the puzzle again")
        by_id(drv, "path-last").click()
        eq(grid(drv), sol, "Last: the solution")
        by_id(drv, "path-close").click()
        eq(grid(drv), p, "back to the player's grid")
        eq(js_errors(drv), [], "console errors")


@T.case("rate and canonical form as the line protocol says; a pasted "
        "grid, a typed puzzle, a conflict marked", ONE, own=True,
        timeout=240)
def t_facts(c):
    drv = Browser.get()
    with PageDaemon() as d:
        open_page(drv, d)
        # A 9-line grid, with rules, pasted.
        rows = [CLASSIC[r * 9:r * 9 + 9] for r in range(9)]
        pasted = "\n".join("| " + " ".join(r[0:3]) + " | " +
                           " ".join(r[3:6]) + " | " + " ".join(r[6:9]) +
                           " |" for r in rows)
        by_id(drv, "puzzle-text").clear()
        by_id(drv, "puzzle-text").send_keys(pasted)
        click_and_wait(drv, "load", lambda d_: "Loaded" in status(d_),
                       "the pasted grid loaded")
        eq(grid(drv), CLASSIC.replace("0", "."), "the pasted grid")
        click_and_wait(drv, "rate", lambda d_: "Rated" in status(d_),
                       "a rating")
        level, score, hardest = d.line("RATE " + CLASSIC).split()
        facts = by_id(drv, "facts").text
        for v in (level, score, hardest.replace("_", " ")):
            check(v in facts, "%r not among the facts %r" % (v, facts))
        click_and_wait(drv, "canon", lambda d_: "Canonical" in by_id(
            d_, "facts").text, "the canonical form")
        form, autos = d.line("CANON " + CLASSIC).split()
        facts = by_id(drv, "facts").text
        check(form in facts and autos in facts, "CANON %s %s not in %r"
              % (form, autos, facts))

        # Typed into the grid with the keyboard, arrows between cells.
        by_id(drv, "edit").click()
        first = cell_input(drv, "r1c1")
        first.send_keys("5")
        active = drv.switch_to.active_element
        from selenium.webdriver.common.keys import Keys
        active.send_keys(Keys.ARROW_RIGHT)
        eq(drv.switch_to.active_element.get_attribute("data-cell"), "r1c2",
           "ArrowRight from r1c1")
        drv.switch_to.active_element.send_keys("5")
        click_and_wait(drv, "start", lambda d_: "twice" in status(d_),
                       "the conflict refused")
        eq(sorted(cell_classes(drv, "wrong")), ["r1c1", "r1c2"],
           "the conflict's cells marked")
        eq(js_errors(drv), [], "console errors")


@T.case("a phone's viewport: the whole grid visible, no sideways scroll; "
        "every control has an accessible name", ONE, own=True,
        timeout=180)
def t_phone(c):
    drv = Browser.get()
    with PageDaemon() as d:
        open_page(drv, d)
        generate(drv, "easy", "none", 3)
        drv.set_window_size(390, 844)
        wait(drv, lambda d_: d_.execute_script(
            "return window.innerWidth") <= 400, "the phone's width")
        over = drv.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth")
        check(over <= 0, "the page scrolls sideways by %d px" % over)
        box = drv.execute_script(
            "const r = document.getElementById('board')"
            ".getBoundingClientRect(); return [r.left, r.right, r.width];")
        width = drv.execute_script("return window.innerWidth")
        check(box[0] >= 0 and box[1] <= width and box[2] >= 0.8 * width,
              "the grid at %s in a width of %d" % (box, width))
        unnamed = drv.execute_script("""
            const out = [];
            for (const e of document.querySelectorAll(
                    'input, select, textarea, button')) {
                const name = e.getAttribute('aria-label') ||
                    (e.labels && [...e.labels].map(l => l.textContent)
                     .join('').trim()) || e.textContent.trim();
                if (!name) out.push(e.outerHTML.slice(0, 80));
            }
            return out;""")
        eq(unnamed, [], "controls without an accessible name")
        drv.save_screenshot(os.path.join(SHOTS, "page-phone.png"))


@T.case("a server with a secret: HELLO without it, the page asks for the "
        "token, and works with it", ONE, own=True, timeout=180)
def t_auth(c):
    drv = Browser.get()
    tmp = tempfile.mkdtemp(prefix="sudokud-page.")
    secret = "page-secret-42"
    path = os.path.join(tmp, "secret")
    with open(path, "w") as f:
        f.write(secret + "\n")
    try:
        with PageDaemon(http_conf="[server]\nauth_file = %s\n" % path) as d:
            open_page(drv, d)
            check(by_id(drv, "auth").is_displayed(), "no field for the "
                  "token though HELLO says auth=required")
            by_id(drv, "seed").send_keys("5")
            click_and_wait(drv, "generate", lambda d_: "noauth" in
                           status(d_), "the refusal without the token")
            by_id(drv, "token").send_keys(secret)
            p = generate(drv, "easy", "none", 5)
            eq(p, d.line("GENERATE easy 5", secret), "the puzzle with "
               "the token")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    try:
        return T.run()
    finally:
        Browser.quit()


if __name__ == "__main__":
    sys.exit(main())
