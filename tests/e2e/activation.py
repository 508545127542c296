#!/usr/bin/env python3
"""activation.py -- sudokud under a pretend systemd (TAP).

RELIABILITY.md case 30 and the systemd half of 26-28: the test plays the
service manager.  It binds the sockets itself and passes them as fds 3
and 4 with LISTEN_PID/LISTEN_FDS/LISTEN_FDNAMES (as systemd and
systemd-socket-activate do), and binds a datagram socket as
NOTIFY_SOCKET.  Then it checks what sd_notify(3) and sd_listen_fds(3)
promise: READY=1 once serving; RELOADING=1 with MONOTONIC_USEC in one
message, then READY=1, on SIGHUP (also when the new file is broken);
STOPPING=1 and exit 0 on SIGTERM; inherited sockets used and never
unlinked; configured ones not inherited opened and removed as usual.

SUDOKUD=/path/to/sudokud overrides the binary under test.
"""
import fcntl
import os
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap as taplib  # noqa: E402

TIMEOUT = 10.0
TAP = taplib.Tap()
tap = TAP.ok


def find_daemon():
    if os.environ.get("SUDOKUD"):
        return os.environ["SUDOKUD"]
    top = os.environ.get("top_builddir", ".")
    for p in (os.path.join(top, "src", "sudokud"), os.path.join(top, "sudokud")):
        if os.access(p, os.X_OK):
            return os.path.abspath(p)
    return None


def spawn(argv, env, fds):
    """fork/exec argv with fds at 3, 4, ... and LISTEN_PID = the child."""
    pid = os.fork()
    if pid == 0:
        try:
            # Move them out of the way first, then into place.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in fds]
            for i, fd in enumerate(high):
                os.dup2(fd, 3 + i, inheritable=True)
            env = dict(env, LISTEN_PID=str(os.getpid()),
                       LISTEN_FDS=str(len(fds)))
            os.closerange(3 + len(fds), 1024)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid


def recv_notify(sock, timeout=TIMEOUT):
    sock.settimeout(timeout)
    try:
        return sock.recv(4096).decode()
    except socket.timeout:
        return None


def wait_for(sock, want, timeout=TIMEOUT):
    """Messages until one with the line want; returns (it, all seen)."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = recv_notify(sock, max(0.01, end - time.monotonic()))
        if msg is None:
            break
        seen.append(msg)
        if want in msg.split("\n"):
            return msg, seen
    return None, seen


def ask(family, addr, line):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(TIMEOUT)
    try:
        s.connect(addr)
        s.sendall(line.encode() + b"\n")
        s.shutdown(socket.SHUT_WR)
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        return data.decode(errors="replace").strip()
    except OSError as e:
        return "error: %s" % e
    finally:
        s.close()


def reap(pid, timeout=TIMEOUT):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return status
        time.sleep(0.02)
    return None


def main():
    daemon = find_daemon()
    if daemon is None:
        return taplib.skip_all("sudokud not built")
    tmp = tempfile.mkdtemp(prefix="activation.")
    inherited = os.path.join(tmp, "inherited.sock")
    own = os.path.join(tmp, "own.sock")
    conf = os.path.join(tmp, "sudokud.conf")
    with open(conf, "w") as f:
        f.write("[listen]\nunix = %s\nunix = %s\n" % (inherited, own))

    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(os.path.join(tmp, "notify"))
    unix_l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix_l.bind(inherited)
    unix_l.listen(16)
    ino = os.stat(inherited).st_ino
    tcp_l = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp_l.bind(("127.0.0.1", 0))
    tcp_l.listen(16)
    tcp_addr = tcp_l.getsockname()

    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "NOTIFY_SOCKET": os.path.join(tmp, "notify"),
           "LISTEN_FDNAMES": "local:net"}
    pid = spawn([daemon, "-d", "-f", conf], env,
                [unix_l.fileno(), tcp_l.fileno()])
    unix_l.close()
    tcp_l.close()
    status = None
    try:
        msg, seen = wait_for(notify, "READY=1")
        tap(msg is not None, "READY=1 once serving", seen)
        reply = ask(socket.AF_UNIX, inherited, "PING")
        tap(reply == "PONG", "PING on the inherited Unix socket", reply)
        st = os.stat(inherited)
        tap(st.st_ino == ino and stat.S_ISSOCK(st.st_mode),
            "inherited socket path not replaced")
        reply = ask(socket.AF_INET, tcp_addr, "PING")
        tap(reply == "PONG", "PING on the inherited TCP socket "
            "(not configured)", reply)
        reply = ask(socket.AF_UNIX, own, "PING")
        tap(reply == "PONG", "PING on the configured, not inherited socket",
            reply)

        # A good reload: RELOADING=1 and MONOTONIC_USEC= in one message.
        with open(conf, "a") as f:
            f.write("[server]\nidle_timeout = 77\n")
        before = time.monotonic_ns() // 1000
        os.kill(pid, signal.SIGHUP)
        msg, seen = wait_for(notify, "RELOADING=1")
        after = time.monotonic_ns() // 1000
        usec = None
        if msg:
            for line in msg.split("\n"):
                if line.startswith("MONOTONIC_USEC="):
                    usec = int(line.split("=", 1)[1])
        tap(usec is not None and before <= usec <= after,
            "RELOADING=1 with MONOTONIC_USEC in one message",
            "%r before=%d after=%d" % (seen, before, after))
        msg, seen = wait_for(notify, "READY=1")
        tap(msg is not None, "READY=1 after the reload", seen)

        # A broken file: the same messages, and still serving.
        with open(conf, "a") as f:
            f.write("nonsense\n")
        os.kill(pid, signal.SIGHUP)
        m1, s1 = wait_for(notify, "RELOADING=1")
        m2, s2 = wait_for(notify, "READY=1")
        reply = ask(socket.AF_UNIX, inherited, "PING")
        tap(m1 is not None and m2 is not None and reply == "PONG",
            "broken file: RELOADING=1, READY=1, still serving",
            "%r %r %r" % (s1, s2, reply))

        os.kill(pid, signal.SIGTERM)
        msg, seen = wait_for(notify, "STOPPING=1")
        tap(msg is not None, "STOPPING=1 on SIGTERM", seen)
        status = reap(pid)
        tap(status is not None and os.WIFEXITED(status) and
            os.WEXITSTATUS(status) == 0, "exit status 0", status)
        tap(os.path.exists(inherited), "inherited socket never unlinked")
        tap(not os.path.exists(own), "own socket removed at exit")
    finally:
        if status is None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            reap(pid, 2)
        notify.close()
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)
    socket_activate(daemon)
    return TAP.done()


def socket_activate(daemon):
    """The real launcher: it execs sudokud on the first connection."""
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        TAP.skip("systemd-socket-activate", "not installed")
        return
    tmp = tempfile.mkdtemp(prefix="activation.")
    path = os.path.join(tmp, "s.sock")
    conf = os.path.join(tmp, "sudokud.conf")
    with open(conf, "w") as f:
        f.write("[listen]\nunix = %s\n" % path)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(os.path.join(tmp, "notify"))
    pid = os.spawnv(os.P_NOWAIT, tool, [tool, "-l", path, "-E",
                    "NOTIFY_SOCKET=" + os.path.join(tmp, "notify"),
                    daemon, "-f", conf])
    status = None
    try:
        end = time.monotonic() + TIMEOUT
        while not os.path.exists(path) and time.monotonic() < end:
            time.sleep(0.02)
        reply = ask(socket.AF_UNIX, path, "PING")
        msg, seen = wait_for(notify, "READY=1")
        os.kill(pid, signal.SIGTERM)
        status = reap(pid)
        tap(reply == "PONG" and msg is not None and status == 0 and
            os.path.exists(path), "systemd-socket-activate -l: PONG, "
            "READY=1, exit 0, socket kept", "%r %r %r" % (reply, seen, status))
    finally:
        if status is None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            reap(pid, 2)
        notify.close()
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
