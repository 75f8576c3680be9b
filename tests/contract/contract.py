#!/usr/bin/env python3
"""contract.py PARAPET_BINARY: the spec agrees with the server (issue 20).
Starts `parapet serve --dev` (server.py), takes the OpenAPI document it
serves, and sends for every operation a request built from the document
(request.py) with the real ids of the walk substituted; the answer must be
one the document describes for that operation, and a JSON answer must
validate against the operation's response schema (JSON Schema 2020-12,
python3-jsonschema). Ends with "contract: N passed, N failed"."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import jsonschema

sys.dont_write_bytecode = True  # nothing generated in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import request  # noqa: E402
from server import DevServer  # noqa: E402

# Operations that cannot succeed with what a walk can build: each answers
# with its documented error envelope, which is validated instead (keep short).
DUMP = os.environ.get("CONTRACT_DUMP")  # a file: every result, for whoever writes the shapes
ERROR_EXPECTED = {
    # a capture completes only when a capture agent (parapet capture-agent, root, an interface) ran it
    "op.capture.download",
}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def send(srv, method, path, query, headers, body):
    url = srv.base + path + ("?" + urllib.parse.urlencode(request.form_pairs(query)) if query else "")
    rq = urllib.request.Request(url, data=body, method=method, headers=headers)
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=srv.tls), NoRedirect)
    try:
        with opener.open(rq, timeout=60) as rs:
            return rs.status, rs.headers, rs.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def phase(op_id, method, path):
    """0 tokens, 1 reads (ids are learnt), 2 creates, 3 changes, 4 reads
    again (what the changes stored), 5 deletes and stops (deepest first)."""
    last = op_id.rsplit(".", 1)[-1]
    if op_id.startswith("auth."):
        return 0
    if method == "delete" or last in ("delete", "revoke", "stop"):
        return 5
    if last in ("create", "add", "clone") or op_id.endswith("zonetransfer.create"):
        return 2
    if method == "get":
        return 1
    return 3


# Ids a result hands out under another name than the path takes them.
ALIASES = {"alert_id": "event_id"}


def scope(op_id):
    """Ids of one name that are not interchangeable are kept apart: WAF
    events and DDoS events (both {event_id}), flow-down events and DDoS
    events (both alert_id: a flow-down's is no DDoS event's detail, and the
    --dev data has one in six days about one run in three), a host's flex
    filters and an auto-mitigation profile's ({filter_id})."""
    for part, prefix in (("waf_event", "waf:"), ("flow_down", "down:"), ("auto_mitigation.flex_filter", "auto:")):
        if part in op_id:
            return prefix
    return ""


def harvest(value, into, overwrite, prefix=""):
    """Learns the ids a result hands out: members named *_id (and id). With
    overwrite, a new id goes on top of the ones of its name (a create)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if (k.endswith("_id") or k == "id") and isinstance(v, (str, int)) and not isinstance(v, bool):
                for name in (k, ALIASES.get(k)):
                    if not name:
                        continue
                    stack = into.setdefault(prefix + name, [])
                    if overwrite or not stack:
                        stack.append(v)
            harvest(v, into, overwrite, prefix)
    elif isinstance(value, list):
        for v in value:
            harvest(v, into, overwrite, prefix)


def needed(op):
    """The names an operation cannot be sent without: its path's ids, and
    the ids its query requires (without an example)."""
    return [p["name"] for p in op.get("parameters", []) if "example" not in p and
            (p["in"] == "path" or (p["required"] and p["name"].endswith("_id")))]


def schema_at(doc, pointer):
    """A validator for the schema at a JSON pointer of the document; the
    document is the root, so its #/components/... references resolve."""
    root = dict(doc)
    root["$ref"] = pointer
    return jsonschema.Draft202012Validator(root)


def pointer(*parts):
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Walk:
    def __init__(self, srv, doc):
        self.srv, self.doc = srv, doc
        self.passed = self.failed = 0
        creds = srv.credentials
        now = time.time()
        self.common = {"customer_id": creds["customer_1"]["customer_id"],
                       "start_time": request.Moment(now - 6 * 86400), "end_time": request.Moment(now)}
        # The --dev data's attacks start at random times (their site's id
        # seeds them): the Application Protection site has ~14 a month, so
        # six days hold none about one run in twenty, and the Origin
        # Protection site's six days held none in one CI run (~0.8 a day).
        # Then no {event_id} reaches the event's detail or top traffic
        # patterns. Both lists allow 31 days: they are read over 30.
        month = {"start_time": request.Moment(now - 30 * 86400)}
        self.op_common = {"ap.dashboard.ddos_events": month, "op.dashboard.ddos_events": month}
        self.seen = {}      # family -> name -> value, first seen (the seeded state)
        self.created = {}   # family -> name -> value, what this walk created
        self.tokens = {}
        self.files = {}
        self.sent = set()  # the operations a request was sent to

    def known(self, op_id, ph):
        """The values the walk has for an operation's names: in the first
        reads only what the seeded state showed, later what this walk
        created first."""
        family, prefix = op_id.split(".")[0], scope(op_id)
        seen, created = self.seen.get(family, {}), self.created.get(family, {})
        layers = [seen] if ph == 1 else [seen, created]
        out = {}
        for scoped in (False, True):  # the names of the operation's scope win
            for layer in layers:
                for k, stack in layer.items():
                    if stack and not scoped and ":" not in k:
                        out[k] = stack[-1]
                    elif stack and scoped and prefix and k.startswith(prefix):
                        out[k[len(prefix):]] = stack[-1]
        out.update(self.common)
        out.update(self.op_common.get(op_id, {}))
        if family == "auth":
            creds = self.srv.credentials
            app = creds["portal_app" if op_id == "auth.credit_token" else "installed_app"]
            out.update(app)
            out["xspe"] = creds["installation"]["xspe"]
            out["redirect_uri"] = creds["installed_app_host_url"] + "/callback"
            out.update(self.tokens.get("auth", {}))
        return out

    def token(self, op):
        access = op.get("x-access")
        if access == "public":
            return {}, {}
        if access == "ingest":
            return {}, {"Authorization": "Bearer " + self.tokens["ingest"]}
        t = self.tokens["installed" if access == "bound_customer" else "portal"]
        return {"access_token": t}, {}

    def fail(self, op_id, why):
        self.failed += 1
        print("FAIL %s: %s" % (op_id, why))

    def run(self, path, method, op, ph):
        op_id = op["operationId"]
        known = self.known(op_id, ph)
        missing = [n for n in needed(op) if n not in known]
        if missing:
            if ph == 1:  # read again in phase 4, once the creates have handed out ids
                return None
            return self.fail(op_id, "no value for {%s}: nothing the walk saw handed one out" % missing[0])
        m, url_path, query, headers, body = request.build(path, method, op, known, self.files)
        tq, th = self.token(op)
        query.update(tq)
        headers.update(th)
        status, rs_headers, raw = send(self.srv, m, url_path, query, headers, body)
        self.sent.add(op_id)
        responses = op["responses"]
        key = str(status) if str(status) in responses else "%dXX" % (status // 100)
        if key not in responses:
            return self.fail(op_id, "status %d is not documented (%s)" % (status, raw[:300]))
        expect_error = op_id in ERROR_EXPECTED
        if (status >= 400) != expect_error:
            return self.fail(op_id, "%s %s -> %d %s" % (m, url_path, status, raw[:400].decode(errors="replace")))
        resp = responses[key]
        ptr = pointer("paths", path, method, "responses", key)
        if "$ref" in resp:
            ptr = resp["$ref"]
            resp = self.doc["components"]["responses"][ptr.rsplit("/", 1)[-1]]
        ctype = (rs_headers.get("Content-Type") or "").split(";")[0].strip()
        content = resp.get("content", {})
        if content and ctype not in content:
            return self.fail(op_id, "Content-Type %r is not documented for %s" % (ctype, key))
        for h in resp.get("headers", {}):
            if rs_headers.get(h) is None:
                return self.fail(op_id, "no %s header" % h)
        value = None
        if ctype == "application/json":
            try:
                value = json.loads(raw)
            except ValueError as e:
                return self.fail(op_id, "not JSON: %s" % e)
            errors = sorted(schema_at(self.doc, ptr + "/content/application~1json/schema").iter_errors(value),
                            key=lambda e: list(e.absolute_path))
            if errors:
                shown = "; ".join("at %s: %s" % ("/".join(map(str, e.absolute_path)) or "/", e.message[:200])
                                  for e in errors[:3])
                return self.fail(op_id, "drift: " + shown)
        self.passed += 1
        if DUMP:
            with open(DUMP, "a") as f:
                f.write("%s %d %s\n" % (op_id, ph, json.dumps(value.get("result") if isinstance(value, dict)
                                                            and op_id != "meta.openapi" else None)))
        self.learn(op_id, ph, value, rs_headers)
        return True

    def learn(self, op_id, ph, value, headers):
        family = op_id.split(".")[0]
        if op_id == "auth.connect":
            q = urllib.parse.parse_qs(urllib.parse.urlparse(headers.get("Location", "")).query)
            self.tokens.setdefault("auth", {})["code"] = q.get("code", [""])[0]
            return
        if not isinstance(value, dict) or "result" not in value:
            return
        result = value["result"]
        if op_id in ("auth.access_token", "auth.refresh_token"):
            self.tokens["installed"] = result["access_token"]
            self.tokens.setdefault("auth", {})["refresh_token"] = result["refresh_token"]
        elif op_id == "auth.credit_token":
            self.tokens["portal"] = result["access_token"]
        else:
            into = self.seen if ph == 1 else self.created
            harvest(result, into.setdefault(family, {}), ph == 2, scope(op_id))

    def forget(self, op_id, path):
        """After a delete: the id it removed is no longer the newest of its name."""
        family, name = op_id.split(".")[0], path.rsplit("{", 1)[-1].rstrip("}")
        if op_id.endswith(".delete") and path.endswith("}"):
            for layer in (self.created.get(family, {}), self.seen.get(family, {})):
                stack = layer.get(scope(op_id) + name, [])
                if stack:
                    stack.pop()
                    return

    def runnable(self, op, ph):
        known = self.known(op["operationId"], ph)
        return all(n in known for n in needed(op))

    def walk(self):
        """Runs the runnable operation of the highest priority, again and
        again: tokens, reads, creates, changes, the reads once more, deletes
        (deepest first). An operation whose path needs an id no answer has
        handed out yet waits; one that still waits at the end fails."""
        pending = []
        for path, item in self.doc["paths"].items():
            for method, op in item.items():
                ph = phase(op["operationId"], method, path)
                depth = path.count("{") * 100 + path.count("/")
                pending.append((ph, depth, op["operationId"], path, method, op))
                if ph == 1:
                    pending.append((4, depth, op["operationId"], path, method, op))
        auth_order = ["auth.connect", "auth.access_token", "auth.refresh_token", "auth.credit_token"]
        pending.sort(key=lambda o: (o[0], auth_order.index(o[2]) if o[2] in auth_order else 0,
                                    -o[1] if o[0] == 5 else o[1], -o[2].count(".") if o[0] == 5 else 0, o[2]))
        while pending:
            i = next((i for i, o in enumerate(pending) if self.runnable(o[5], o[0])), None)
            if i is None:
                for o in pending:  # each fails: "no value for ..." (a first read waits for its second)
                    if o[0] != 1:
                        self.run(o[3], o[4], o[5], o[0])
                return
            ph, _, op_id, path, method, op = pending.pop(i)
            if method == "delete" and "put" in self.doc["paths"][path]:
                # a PUT and a DELETE of one path (a certificate): put it (again) for this delete
                self.run(path, "put", self.doc["paths"][path]["put"], 3)
            if self.run(path, method, op, ph) and ph == 5:
                self.forget(op_id, path)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/release/parapet"
    srv = DevServer(binary)
    walk = None
    try:
        srv.start()
        walk = Walk(srv, None)
        status, _, raw = send(srv, "GET", "/api/openapi.json", {}, {}, None)
        walk.doc = json.loads(raw)
        walk.tokens["ingest"] = srv.admin("ingest-token", "create", "--name", "contract")["token"]
        walk.files = cert_files(srv.data)
        walk.walk()
        for item in walk.doc["paths"].values():  # every operation, none skipped
            for op in item.values():
                if op["operationId"] not in walk.sent:
                    walk.fail(op["operationId"], "no request was sent to it")
    except Exception as e:  # noqa: BLE001 (a broken set-up is a failure, with its reason)
        print("FAIL set-up: %r" % e)
        if walk:
            walk.failed += 1
    finally:
        failed = walk.failed if walk else 1
        rc = srv.stop(keep=failed > 0)
        if rc != 0:
            print("FAIL the server did not stop cleanly (%s); data in %s" % (rc, srv.data))
            failed += 1
        elif failed:
            print("data and server log kept in %s" % srv.data)
    print("contract: %d passed, %d failed" % (walk.passed if walk else 0, failed))
    return 1 if failed else 0


def cert_files(directory):
    """A fresh self-signed certificate and key for the certificate uploads."""
    key, crt = os.path.join(directory, "upload.key"), os.path.join(directory, "upload.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-nodes", "-days", "30", "-subj", "/CN=shop.example.com", "-addext",
                    "subjectAltName=DNS:shop.example.com,DNS:*.example.com", "-keyout", key, "-out", crt],
                   check=True, capture_output=True)
    with open(crt) as c, open(key) as k:
        return {"cert_file": ("upload.pem", c.read() + k.read())}


if __name__ == "__main__":
    sys.exit(main())
