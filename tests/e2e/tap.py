"""tap.py -- TAP output for the stand-alone Python tests.

automake's tap-driver.sh counts every "ok"/"not ok" line as one test
case.  Results are printed as they come (so a crash keeps what ran) and
the plan comes last, which TAP allows.
"""
import sys


class Tap:
    def __init__(self, diag_lines=None):
        self.n = 0
        self.failed = 0
        self.diag_lines = diag_lines    # most '# ' lines per failure

    def ok(self, cond, name, diag=""):
        """One result; diag is printed as '# ' lines when cond is false."""
        self.n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.n, name))
        if not cond:
            self.failed += 1
            for line in str(diag or "").splitlines()[:self.diag_lines]:
                print("# " + line)
        sys.stdout.flush()
        return cond

    def skip(self, name, reason):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, name, reason))
        sys.stdout.flush()

    def done(self):
        """Prints the plan; the exit status for the test program."""
        print("1..%d" % self.n)
        return 1 if self.failed else 0


def skip_all(reason):
    print("1..0 # SKIP %s" % reason)
    return 0
