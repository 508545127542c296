#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_openapi.py -- doc/openapi.yaml cannot drift from the daemon (TAP):
it is a valid OpenAPI 3.1 document whose every $ref resolves; its paths
are the resources the daemon has, one per verb of HELLO's verbs= but
AUTH and QUIT; each request schema's properties (and each GET's query
parameters) are the fields the daemon says it takes when refusing one
it does not; its error codes are those of doc/http.md's table and of
proto_json.c's, with the same statuses.  (Every reply of the HTTP tests
is validated against the document: http_common.py.)
"""

import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402

T = h.Tap()
ONE = (None,)
NOT_RESOURCES = ("AUTH", "QUIT")


def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref":
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


@T.case("doc/openapi.yaml is OpenAPI 3.1 and every $ref resolves",
        transports=ONE, daemonless=True)
def _(c):
    check(str(hc.SPEC.get("openapi", "")).startswith("3.1"), "openapi: %r"
          % hc.SPEC.get("openapi"))
    for r in set(refs(hc.SPEC)):
        hc.resolve({"$ref": r})
    try:
        from openapi_spec_validator import validate
    except ImportError:
        c.note("openapi_spec_validator is not installed: structure only")
        return
    validate(hc.SPEC)


def taken(api, verb):
    """The fields the daemon says /v2/<verb> takes."""
    r = api.post(verb, {"no_such_field": 1})
    eq((r.status, r.obj["error"]["code"]), (400, "syntax"), verb)
    m = re.search(r"; it takes (.*)$", r.obj["error"]["message"])
    check(m is not None, "the message names the fields: %r"
          % r.obj["error"]["message"])
    return set() if m.group(1) == "nothing" else set(m.group(1).split(", "))


@T.case("its paths are the daemon's resources, and each request's "
        "fields are those the daemon takes", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        verbs = api.get("/v2/hello").obj["verbs"]
        want = {"/v2/" + v.lower() for v in verbs if v not in NOT_RESOURCES}
        eq(sorted(hc.SPEC["paths"]), sorted(want), "the paths")
        for v in NOT_RESOURCES:
            eq(api.get("/v2/" + v.lower()).status, 404, v)
        for path, item in sorted(hc.SPEC["paths"].items()):
            verb = path[4:]
            fields = taken(api, verb)
            body = hc.resolve(item["post"]["requestBody"]["content"][
                "application/json"]["schema"])
            eq(sorted(body.get("properties", {})), sorted(fields),
               "%s: the request schema's properties" % path)
            params = {hc.resolve(p)["name"] for p in
                      item["get"].get("parameters", [])}
            eq(sorted(params), sorted(fields - {"puzzles"}),
               "%s: GET's query parameters" % path)
            eq(sorted(item), ["get", "post"], "%s: its methods" % path)
    finally:
        d.cleanup()


def doc_codes():
    """doc/http.md's table of errors: code -> status."""
    text = open(os.path.join(h.TOP_SRCDIR, "doc", "http.md")).read()
    sec = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    out = {}
    for ln in sec.splitlines():
        m = re.match(r"\| ((?:`\w+`(?:, )?)+) \| (\d+) \|", ln)
        if m:
            for code in re.findall(r"`(\w+)`", m.group(1)):
                out[code] = int(m.group(2))
    return out


def c_codes():
    """proto_json.c's table: code -> status."""
    text = open(os.path.join(h.TOP_SRCDIR, "src", "daemon",
                             "proto_json.c")).read()
    body = text.split("json_statuses[] = {", 1)[1].split("};", 1)[0]
    return {k: int(v) for k, v in re.findall(r'\{ "(\w+)", (\d+) \}',
                                             body)}


@T.case("the error codes: doc/http.md's table, proto_json.c's and the "
        "document's enum are the same, with the same statuses; the line "
        "protocol's codes are all there", transports=ONE, daemonless=True)
def _(c):
    doc, code = doc_codes(), c_codes()
    eq(doc, code, "doc/http.md's table and proto_json.c's")
    enum = hc.resolve(hc.schema("Error"))["properties"]["code"]["enum"]
    eq(sorted(enum), sorted(code), "the document's enum")
    proto = open(os.path.join(h.TOP_SRCDIR, "doc", "protocol.md")).read()
    sec = proto.split("## Errors", 1)[1].split("\n## ", 1)[0]
    line_codes = set(re.findall(r"^\| `(\w+)` \|", sec, re.M))
    check(line_codes and line_codes - {"toolong"} <= set(code),
          "the line protocol's codes: %r" % sorted(line_codes - set(code)))


if __name__ == "__main__":
    sys.exit(T.run())
