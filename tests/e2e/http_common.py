# SPDX-License-Identifier: ISC
"""
http_common.py -- what the tests of the HTTP listener (doc/http.md)
share: a daemon with an http listener and the page of the source tree,
a client (Python's http.client, a real one that loses its place if a
response is not what it says) whose every reply is validated against
doc/openapi.yaml with python3-jsonschema, and raw responses read off a
socket for what http.client will not send (pipelines, malformed heads).
"""

import http.client
import json
import os
import socket
import time
import warnings

import jsonschema
import yaml

import harness as h
from harness import check

SPEC = yaml.safe_load(open(os.path.join(h.TOP_SRCDIR, "doc",
                                        "openapi.yaml")))
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    RESOLVER = jsonschema.RefResolver.from_schema(SPEC)
WWW = os.path.join(h.TOP_SRCDIR, "www")
JSONL = ("application/x-ndjson", "application/jsonl")
EASY = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28...."
        "419..5....8..79")
EASY_SOLUTION = ("534678912672195348198342567859761423426853791713924856961"
                 "537284287419635345286179")
EMPTY = "0" * 81


class HttpDaemon(h.Daemon):
    """A sudokud with an http listener on a free port (self.http_port);
    http_conf goes into [http], after page_dir (the source tree's)."""

    def __init__(self, http_conf="", listen_conf="", **kw):
        self.http_port = h.free_port()
        extra = kw.pop("extra_conf", "")
        super().__init__(extra_conf="http = 127.0.0.1:%d\n%s[http]\n"
                         "page_dir = %s\n%s%s" % (self.http_port,
                                                  listen_conf, WWW,
                                                  http_conf, extra), **kw)

    def secret(self, secret):
        """auth_file with this secret, before start()."""
        path = os.path.join(self.tmp, "secret")
        with open(path, "w") as f:
            f.write(secret + "\n")
        os.chmod(path, 0o600)
        self.extra_conf += "[server]\nauth_file = %s\n" % path
        return self

    def api(self, timeout=10):
        return Api(self.http_port, timeout=timeout)

    def raw(self, timeout=10):
        s = socket.create_connection(("127.0.0.1", self.http_port), timeout)
        return h.Client(s, timeout)


class Reply:
    """A response: status, headers (lower-case names), the body's bytes,
    and obj, its JSON (a list of objects for JSON Lines; None else)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body
        self.type = headers.get("content-type", "").split(";")[0]
        self.obj = None
        if self.type == "application/json":
            self.obj = json.loads(body)
        elif self.type in JSONL:
            check(body.endswith(b"\n"), "JSON Lines end with a newline")
            self.obj = [json.loads(ln) for ln in body.split(b"\n")[:-1]]

    def __repr__(self):
        return "<%d %s %s>" % (self.status, self.type, h.short(self.body))


def schema(name):
    return {"$ref": "#/components/schemas/" + name}


def resolve(node):
    while "$ref" in node:
        node = RESOLVER.resolve(node["$ref"])[1]
    return node


def validate(obj, sch, what):
    """obj against the schema sch of doc/openapi.yaml, or Fail."""
    v = jsonschema.Draft202012Validator(sch, resolver=RESOLVER)
    err = jsonschema.exceptions.best_match(v.iter_errors(obj))
    if err is not None:
        raise h.Fail("%s: %s does not match doc/openapi.yaml: at %s: %s"
                     % (what, h.short(json.dumps(obj)), list(err.path),
                        err.message[:300]))


def reply_schema(method, path, status, ctype):
    """What doc/openapi.yaml says a response is; None: not its business
    (the page's files)."""
    if not path.startswith("/v2/"):
        return schema("ErrorReply") if ctype == "application/json" \
            else None
    item = SPEC["paths"].get(path.split("?")[0])
    op = item and item.get("get" if method == "HEAD" else method.lower())
    if op is None:
        return schema("ErrorReply")
    resp = op["responses"].get(str(status)) or op["responses"]["default"]
    content = resolve(resp)["content"]
    return content["application/x-ndjson" if ctype in JSONL else
                   ctype]["schema"]


def check_reply(method, path, r):
    """Every reply of the tests: its schema, its headers."""
    if method == "HEAD":
        check(r.body == b"", "HEAD %s: a body %r" % (path, r.body[:60]))
        return
    sch = reply_schema(method, path, r.status, r.type)
    if path.startswith("/v2/") or r.type == "application/json":
        check(r.type in ("application/json",) + JSONL,
              "%s %s: Content-Type %r" % (method, path, r.type))
        check(r.headers.get("cache-control") == "no-store",
              "%s %s: Cache-Control %r" % (method, path,
                                           r.headers.get("cache-control")))
    if sch is None:
        return
    for i, o in enumerate(r.obj if r.type in JSONL else [r.obj]):
        validate(o, sch, "%s %s -> %d (%d)" % (method, path, r.status, i))


class Api:
    """One keep-alive connection to the http listener."""

    def __init__(self, port, host="127.0.0.1", timeout=10, tls=None):
        if tls is None:
            self.conn = http.client.HTTPConnection(host, port,
                                                   timeout=timeout)
        else:
            self.conn = http.client.HTTPSConnection(host, port,
                                                    timeout=timeout,
                                                    context=tls)

    def close(self):
        self.conn.close()

    def req(self, method, path, body=None, headers=None, data=None):
        """body: an object sent as JSON; data: bytes sent as they are."""
        hdrs = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        self.conn.request(method, path, body=data, headers=hdrs)
        resp = self.conn.getresponse()
        r = Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()},
                  resp.read())
        check_reply(method, path, r)
        return r

    def post(self, verb, body, **kw):
        return self.req("POST", "/v2/" + verb, body, **kw)

    def get(self, path, **kw):
        return self.req("GET", path, **kw)


def raw_responses(data, heads=()):
    """Raw HTTP/1.1 responses, Content-Length or chunked: [(status,
    headers, body)], and the bytes left over; those numbered in heads
    answer HEAD (no body).  1xx responses are kept, with no body."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            break
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        hdrs = {}
        for ln in lines[1:]:
            k, _, v = ln.partition(":")
            hdrs[k.strip().lower()] = v.strip()
        if status < 200 or len(out) in heads:
            body = b""
        elif hdrs.get("transfer-encoding") == "chunked":
            body, rest = dechunk(rest)
            if body is None:
                break
        else:
            n = int(hdrs["content-length"])
            if len(rest) < n:
                break
            body, rest = rest[:n], rest[n:]
        out.append((status, hdrs, body))
        data = rest
    return out, data


def dechunk(data):
    """A chunked body: (its bytes, what follows), or (None, data) if it
    has not all come."""
    body = b""
    while True:
        line, sep, rest = data.partition(b"\r\n")
        if not sep:
            return None, data
        n = int(line, 16)
        if len(rest) < n + 2:
            return None, data
        if n == 0:
            return body, rest[2:]
        body += rest[:n]
        data = rest[n + 2:]


def read_responses(k, n, timeout=10, heads=()):
    """n whole responses from a raw connection (1xx ones not counted)."""
    deadline, data = time.monotonic() + timeout, b""
    while time.monotonic() < deadline:
        got, _ = raw_responses(data, heads)
        if len([g for g in got if g[0] >= 200]) >= n:
            return got
        k.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            more = k.sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            more = b""
        if not more:
            break
        data += more
    raise h.Fail("%d whole responses wanted, have %r" % (n, data[:300]))
