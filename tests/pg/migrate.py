#!/usr/bin/env python3
"""migrate.py PARAPET_BINARY POSTGRESQL_URL: `parapet admin migrate` moves a
running installation from SQLite to PostgreSQL (issue 19).

A `serve --dev` server on SQLite (30 days of simulated telemetry) is given
the contract test's walk up to its changes (tests/contract: a request to
every operation, with the ids it learns): tokens, sites of the three
families, hosts, rules, zones, ingested records. Then, with that server
still running, its data is migrated into the empty database POSTGRESQL_URL
names. The test requires:
- the copy's report: every table, each with SQLite's row count;
- a second migrate into the now full database refused, nothing written;
- a server on the PostgreSQL database, same tokens, answering every read of
  the walk (every GET operation, with the walk's ids) as the SQLite server
  did (the same JSON, but for what the moment of reading decides);
- new rows there after the copied ones (sequences continued): a site
  created on PostgreSQL, and its id new.
Ends with "migrate: N passed, N failed"."""
import json
import os
import sqlite3
import subprocess
import sys
import time

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "contract"))
import contract  # noqa: E402
import request  # noqa: E402
from server import DevServer, free_port  # noqa: E402

# Answers that depend on the clock (the current minute's traffic): read a
# second later they may differ on any store.
CLOCK = ("is_under_attack", "current_traffic", "active_mitigation")


def normalized(body):
    """An answer without what the moment of reading decides: when it was
    generated, how long an ongoing event has lasted, the server's own
    address (the document's servers)."""
    try:
        value = json.loads(body)
    except ValueError:
        return body

    def strip(v):
        if isinstance(v, dict):
            if v.get("end_time") == 0:
                v.pop("duration", None)
            for k in ("generated_at", "servers"):
                v.pop(k, None)
            for x in v.values():
                strip(x)
        elif isinstance(v, list):
            for x in v:
                strip(x)
        return v
    return strip(value)


class Reads(contract.Walk):
    """The contract walk, stopped before its deletes; remembers each read
    it sent (a GET that answered 200) to replay it elsewhere."""

    def __init__(self, srv, doc):
        super().__init__(srv, doc)
        self.reads = []

    def run(self, path, method, op, ph):
        if ph == 5:  # deletes and stops: keep everything for the copy
            self.sent.add(op["operationId"])
            return None
        return super().run(path, method, op, ph)


def replay_list(walk):
    """Every GET of the document, with the walk's latest ids and tokens."""
    out = []
    for path, item in walk.doc["paths"].items():
        op = item.get("get")
        if not op or op["operationId"].startswith("auth.") or any(c in path for c in CLOCK):
            continue
        known = walk.known(op["operationId"], 4)
        if any(n not in known for n in contract.needed(op)):
            continue
        m, url_path, query, headers, body = request.build(path, "get", op, known, walk.files)
        tq, th = walk.token(op)
        query.update(tq)
        headers.update(th)
        out.append((op["operationId"], url_path, query, headers))
    return out


class PgServer:
    """`parapet serve --store URL` on the SQLite server's data directory
    (its TLS files), without the --dev seed."""

    def __init__(self, binary, url, data):
        self.binary, self.url, self.data = binary, url, data
        self.port = free_port()
        self.base = "https://127.0.0.1:%d" % self.port
        self.proc = None

    def start(self, tls):
        self.tls = tls
        log = open(os.path.join(os.path.dirname(self.data), "pg-server.log"), "wb")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--store", self.url, "--data", self.data, "--listen",
             "127.0.0.1:%d" % self.port, "--threads", "2", "--no-dns-deploy", "--no-nginx-deploy",
             "--no-fastnetmon-deploy", "--no-bird-deploy", "--rate-limit", "0"], stdout=log, stderr=log)
        for _ in range(300):
            status, _, _ = self.get("/", {}, {})
            if status:
                return
            time.sleep(0.1)
        raise RuntimeError("the PostgreSQL server did not start")

    def get(self, path, query, headers):
        try:
            return contract.send(self, "GET", path, query, headers, None)
        except OSError:
            return 0, None, b""

    def stop(self):
        if self.proc:
            self.proc.terminate()
            return self.proc.wait(60)
        return 0


def main():
    binary, url = sys.argv[1], sys.argv[2]
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    srv = DevServer(binary)
    pg = None
    try:
        srv.start()
        walk = Reads(srv, None)
        _, _, raw = contract.send(srv, "GET", "/api/openapi.json", {}, {}, None)
        walk.doc = json.loads(raw)
        walk.tokens["ingest"] = srv.admin("ingest-token", "create", "--name", "migrate")["token"]
        walk.files = contract.cert_files(srv.data)
        walk.walk()
        check(walk.failed == 0, "the walk on SQLite: %d operations failed" % walk.failed)
        reads = replay_list(walk)
        answers = [contract.send(srv, "GET", p, q, h, None) for _, p, q, h in reads]

        # the copy, while the SQLite server runs
        data = os.path.join(srv.data, "d")
        out = subprocess.run([binary, "admin", "migrate", "--from", "sqlite:" + data, "--to", url],
                             capture_output=True, text=True)
        check(out.returncode == 0, "migrate: exit %d: %s" % (out.returncode, out.stderr.strip()))
        report = json.loads(out.stdout) if out.returncode == 0 else {"tables": [], "rows": 0}
        db = sqlite3.connect("file:%s/parapet.db?mode=ro" % data, uri=True)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE "
                                           "'sqlite_%' AND name NOT IN ('schema_migrations', 'resource_rid_floor')")]
        copied = {t["table"]: t["rows"] for t in report["tables"]}
        check(sorted(copied) == sorted(tables), "tables copied %s, in SQLite %s" % (sorted(copied), sorted(tables)))
        for t in tables:  # the walk is done: nothing writes any more, so the counts are final
            n = db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0]
            check(copied.get(t) == n, "table %s: %s copied, %d in SQLite" % (t, copied.get(t), n))
        check(report.get("verified") is True and report["rows"] > 100000,
              "the report: %d rows, verified %s" % (report["rows"], report.get("verified")))
        check(copied.get("tel_flows", 0) > 0 and copied.get("resources", 0) > 3 and copied.get("tokens", 0) > 0,
              "telemetry, resources and tokens are among what was copied")

        again = subprocess.run([binary, "admin", "migrate", "--from", "sqlite:" + data, "--to", url],
                               capture_output=True, text=True)
        check(again.returncode == 1 and "already holds data" in again.stderr,
              "a second migrate: exit %d, %s" % (again.returncode, again.stderr.strip()))

        pg = PgServer(binary, url, data)
        pg.start(srv.tls)
        same = 0
        for (op_id, p, q, h), (status, _, body) in zip(reads, answers):
            st2, _, body2 = pg.get(p, q, h)
            if (st2, normalized(body2)) == (status, normalized(body)):
                same += 1
            else:
                check(False, "%s: SQLite %d %s, PostgreSQL %d %s" % (op_id, status, body[:300], st2, body2[:300]))
        check(same == len(reads) and len(reads) > 30, "%d of %d reads answer alike" % (same, len(reads)))

        # new rows go after the copied ones (the admin CLI on PostgreSQL too)
        added = subprocess.run([binary, "admin", "--store", url, "--data", data, "asn", "add", "--asn", "64500",
                                "--prefix", "10.250.0.0/24"], capture_output=True, text=True)
        check(added.returncode == 0, "admin asn add on PostgreSQL: %s" % added.stderr.strip())
        token = walk.tokens["portal"]
        cust = srv.credentials["customer_1"]["customer_id"]
        form = {"site_name": "after_migrate", "as_num": "64500", "cidr": "10.250.0.0/24"}
        body = "&".join("%s=%s" % kv for kv in form.items()).encode()
        st, _, raw = contract.send(pg, "POST", "/api/spe/customer/%s/op/site" % cust, {"access_token": token},
                                   {"Content-Type": "application/x-www-form-urlencoded"}, body)
        check(st == 200 and b'"code":0' in raw, "a site created on PostgreSQL after the copy: %d %s" % (st, raw[:300]))
    except Exception as e:  # noqa: BLE001 (a broken set-up is a failure, with its reason)
        check(False, "set-up: %r" % e)
    finally:
        if pg and pg.stop() != 0:
            check(False, "the PostgreSQL server did not stop cleanly")
        srv.stop(keep=failed > 0)
    print("migrate: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
