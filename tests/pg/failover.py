#!/usr/bin/env python3
"""failover.py PARAPET_BINARY: the database primary fails (docs/deploy.md,
"When the primary fails").

Two PostgreSQL 15 clusters in a temporary directory, each on a Unix socket
of its own: a primary and a streaming standby made with pg_basebackup,
synchronous (synchronous_standby_names = 's1', synchronous_commit = on).
One `parapet serve` node connects with a multi-host URL
(host=PRIMARY,STANDBY&target_session_attrs=read-write). Under a stream of
durable writes (token issuance, four clients), every process of the
primary is killed (kill -9), then the standby is promoted (pg_ctl promote).
The test requires:
- every answer meanwhile is 200 or 503 50300001 (a write caught in flight
  may answer 500 50000002: not acknowledged, so allowed);
- the node carries on after the promotion without a restart (writes answer
  200 again);
- every acknowledged token (answered 200) is on the new primary;
- the webhook worker carries on: DDoS events are ingested through the node
  (one a tenth of a second, each queuing one delivery to a local HTTPS
  receiver) before, during and after the failure, and every event whose
  ingest was acknowledged is delivered after the promotion (at least once:
  a delivery leased or sent on the old primary may come again, counted and
  printed as duplicates);
- the DDoS deployer carries on: a site created after the promotion is
  rendered for FastNetMon by the node's deployer.
It prints the outage the clients saw (first failed answer to the first
success after the promotion). Ends with "failover: N passed, N failed"."""
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PG = "/usr/lib/postgresql/15/bin"
binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="parapet-failover.")
os.chmod(work, 0o755)  # the clusters run as `postgres` when we are root
as_root = os.getuid() == 0
passed = failed = 0
node = None


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


def pg(*args, **kw):
    cmd = (["runuser", "-u", "postgres", "--"] if as_root else []) + list(args)
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def cluster_dir(name):
    d = os.path.join(work, name)
    os.mkdir(d)
    if as_root:
        subprocess.run(["chown", "postgres", d], check=True)
    return d


def start(d):
    pg(PG + "/pg_ctl", "-D", d + "/data", "-l", d + "/server.log", "-w", "-t", "60", "-o",
       "-c listen_addresses= -c unix_socket_directories=%s -c max_connections=100 -c shared_buffers=32MB" % d,
       "start")


def psql(host, sql):
    # on standard input: the check of every acknowledged token is one statement
    # of thousands of digests, longer than one argument may be (E2BIG)
    return pg("psql", "-qXtA", "-v", "ON_ERROR_STOP=1", "-h", host, "-U", "parapet", "-d", "parapet",
              input=sql).stdout.strip()


def postmaster_and_children(d):
    pm = open(d + "/data/postmaster.pid").readline().strip()
    pids = [pm]
    for p in os.listdir("/proc"):
        try:
            if open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()[1] == pm:
                pids.append(p)
        except (OSError, IndexError):
            pass
    return [int(p) for p in pids]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


results = []  # (time, status, code, token)
events = []  # (time, status, alert id): ingested DDoS events
delivered = {}  # alert id: deliveries the receiver got
results_mu = threading.Lock()
stop_writing = threading.Event()


def client_tls():
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    return tls


def call(port, method, path, body=None, ctype="application/x-www-form-urlencoded", headers=None):
    """One request on a connection of its own: (status, document)."""
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=client_tls(), timeout=30)
    try:
        h = dict(headers or {})
        if body is not None:
            h["Content-Type"] = ctype
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def writer(port, creds):
    body = urllib.parse.urlencode(creds)
    conn = None
    while not stop_writing.is_set():
        try:
            if conn is None:
                conn = http.client.HTTPSConnection("127.0.0.1", port, context=client_tls(), timeout=30)
            conn.request("POST", "/oauth/credit/token", body=body,
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
            r = conn.getresponse()
            doc = json.loads(r.read() or b"{}")
            token = (doc.get("result") or {}).get("access_token") if r.status == 200 else None
            with results_mu:
                results.append((time.monotonic(), r.status, doc.get("code"), token))
        except (OSError, http.client.HTTPException, ValueError) as e:
            with results_mu:
                results.append((time.monotonic(), 0, repr(e), None))
            conn = None
            time.sleep(0.05)


def ingester(port, ingest_token, site_ip):
    """A DDoS event of its own every 0.1 s, each queuing one webhook delivery."""
    n = 0
    while not stop_writing.is_set():
        n += 1
        alert = "fo-%d" % n
        rec = [{"kind": "ddos_event", "alert_id": alert, "attack_type": "UDP Total", "site_ip": site_ip,
                "start_time": int(time.time()) - 60, "max_bps": 1000, "max_pps": 10, "severity": "high"}]
        try:
            status, _ = call(port, "POST", "/ingest/v1/records", json.dumps(rec), "application/json",
                             {"Authorization": "Bearer " + ingest_token})
        except (OSError, http.client.HTTPException, ValueError):
            status = 0
        with results_mu:
            events.append((time.monotonic(), status, alert))
        time.sleep(0.1)


def receiver(d):
    """A local HTTPS webhook receiver; its port and certificate."""
    pem, key = d + "/receiver.pem", d + "/receiver.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", key, "-out", pem], check=True, capture_output=True)

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with results_mu:
                for alert in set(re.findall(rb'"(fo-[0-9]+)"', body)):
                    delivered[alert.decode()] = delivered.get(alert.decode(), 0) + 1
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(pem, key)
    httpd.socket = tls.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd.server_address[1], pem


def log_says(path, mark, text):
    with open(path, "rb") as f:
        f.seek(mark)
        return text.encode() in f.read()


try:
    p, s = cluster_dir("primary"), cluster_dir("standby")
    pg(PG + "/initdb", "-D", p + "/data", "--locale=C", "-E", "UTF8", "-A", "trust", "-U", "parapet")
    start(p)
    pg(PG + "/createdb", "-h", p, "-U", "parapet", "parapet")
    pg(PG + "/pg_basebackup", "-h", p, "-U", "parapet", "-D", s + "/data", "-R", "-X", "stream")
    with open(s + "/data/postgresql.auto.conf", "a") as f:
        f.write("primary_conninfo = 'host=%s user=parapet application_name=s1'\n" % p)
    start(s)
    # synchronous once the standby is there (a commit would wait for it before)
    psql(p, "ALTER SYSTEM SET synchronous_standby_names = 's1'")
    psql(p, "SELECT pg_reload_conf()")
    for _ in range(100):
        if psql(p, "SELECT sync_state FROM pg_stat_replication") == "sync":
            break
        time.sleep(0.1)
    check(psql(p, "SELECT sync_state FROM pg_stat_replication") == "sync", "the standby is synchronous")

    url = "postgresql:///parapet?host=%s,%s&user=parapet&target_session_attrs=read-write" % (p, s)
    env = dict(os.environ, PARAPET_STORE=url)
    admin = [binary, "admin", "--data", work + "/admin"]
    out = lambda *a: json.loads(subprocess.run(admin + list(a), env=env, check=True, capture_output=True,
                                               text=True).stdout)
    portal = out("portal", "create", "--name", "Failover")["portal_id"]
    app = out("app", "create", "--kind", "portal", "--portal", portal, "--name", "FailoverApp")
    cust = out("customer", "create", "--portal", portal, "--name", "FailoverCustomer", "--services", "op")
    cust = cust["customer_id"]
    out("asn", "add", "--asn", "64511", "--prefix", "10.251.0.0/24", "--prefix", "10.251.1.0/24")
    ingest_token = out("ingest-token", "create", "--name", "failover")["token"]
    rport, rpem = receiver(work)
    port = free_port()
    log = work + "/node.log"
    node = subprocess.Popen([binary, "serve", "--data", work + "/node", "--listen", "127.0.0.1:%d" % port,
                             "--rate-limit", "0", "--no-dns-deploy", "--no-nginx-deploy",
                             "--ddos-deploy-interval", "2", "--webhook-allow", "127.0.0.1",
                             "--webhook-ca", rpem, "--webhook-retry-base", "200", "--webhook-retry-max", "1000"],
                            env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    creds = {"app_id": app["app_id"], "secret": app["secret"], "grant_type": "client_credential"}
    token = call(port, "POST", "/oauth/credit/token", urllib.parse.urlencode(creds))[1]["result"]["access_token"]
    op = "/api/spe/customer/%s/op/site?access_token=%s" % (cust, token)
    st, doc = call(port, "POST", op, "site_name=fo_events&as_num=64511&cidr=10.251.0.0/24")
    check(st == 200, "a site for the events: %s" % doc)
    st, doc = call(port, "POST", "/api/spe/customer/%s/webhook?access_token=%s" % (cust, token),
                   json.dumps({"url": "https://127.0.0.1:%d/hook" % rport, "event_types": ["ddos.started"]}),
                   "application/json")
    check(st == 200, "a webhook for the events: %s" % doc)
    writers = [threading.Thread(target=writer, args=(port, creds)) for _ in range(4)]
    writers.append(threading.Thread(target=ingester, args=(port, ingest_token, "10.251.0.9")))
    for w in writers:
        w.start()
    time.sleep(1.5)
    victims = postmaster_and_children(p)
    killed = time.monotonic()
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(1.0)  # the operator's tool notices and decides
    pg(PG + "/pg_ctl", "-D", s + "/data", "-w", "promote")
    promoted = time.monotonic()
    deadline = promoted + 30
    while time.monotonic() < deadline:
        with results_mu:
            back = sum(1 for r in results if r[0] > promoted and r[1] == 200)
        if back >= 20:
            break
        time.sleep(0.1)
    # the deployer: a site made after the promotion is rendered
    mark = os.path.getsize(log)
    st = 0
    while st != 200 and time.monotonic() < deadline:
        st, doc = call(port, "POST", op, "site_name=fo_after&as_num=64511&cidr=10.251.1.0/24")
    check(st == 200, "a site is created after the promotion: %s" % doc)
    while time.monotonic() < promoted + 30 and not log_says(log, mark, "fastnetmon: 2 sites"):
        time.sleep(0.2)
    check(log_says(log, mark, "fastnetmon: 2 sites"),
          "the DDoS deployer renders a site made after the promotion (%s)" % log)
    time.sleep(0.5)
    stop_writing.set()
    for w in writers:
        w.join(60)
    # the webhook worker: every acknowledged event delivered
    acked_events = [e[2] for e in events if e[1] == 200]
    while time.monotonic() < promoted + 60:
        with results_mu:
            missing = [a for a in acked_events if a not in delivered]
        if not missing:
            break
        time.sleep(0.2)
    with results_mu:
        missing = [a for a in acked_events if a not in delivered]
        twice = sum(n - 1 for n in delivered.values())
    print("  webhooks: %d events acknowledged (%d around the failure answered otherwise), %d delivered, "
          "%d delivered more than once, %d missing"
          % (len(acked_events), sum(1 for e in events if e[1] != 200),
             sum(1 for a in acked_events if a in delivered), twice, len(missing)))
    check(sum(1 for e in events if e[0] > promoted and e[1] == 200) > 0, "events are ingested after the promotion")
    check(acked_events and not missing,
          "every acknowledged event's webhook is delivered (missing: %s)" % missing[:5])

    before = [r for r in results if r[0] < killed]
    during = [r for r in results if r[0] >= killed]
    check(before and all(r[1] == 200 for r in before), "writes answer 200 before the failure")
    odd = [r for r in during if not (r[1] == 200 or (r[1] == 503 and r[2] == 50300001) or
                                     (r[1] == 500 and r[2] == 50000002))]
    check(not odd, "every answer meanwhile is 200, 503 50300001 or 500 50000002: %s" % odd[:3])
    check(sum(1 for r in during if r[1] == 503) > 0, "the node answered 503 50300001 while there was no primary")
    check(sum(1 for r in results if r[0] > promoted and r[1] == 200) >= 20,
          "the node carries on after the promotion without a restart")
    first_fail = next((r[0] for r in during if r[1] != 200), None)
    back_at = next((r[0] for r in during if r[0] > promoted and r[1] == 200), None)
    if first_fail and back_at:
        print("  outage seen by clients: %.2f s (primary killed, standby promoted %.2f s later); "
              "%d answers 503, %d answers 500, %d acknowledged writes in all"
              % (back_at - first_fail, promoted - killed, sum(1 for r in during if r[1] == 503),
                 sum(1 for r in during if r[1] == 500), sum(1 for r in results if r[1] == 200)))
    acked = [r[3] for r in results if r[1] == 200 and r[3]]
    digests = ",".join("'%s'" % hashlib.sha256(t.encode()).hexdigest() for t in acked)
    found = int(psql(s, "SELECT count(*) FROM tokens WHERE digest IN (%s)" % digests)) if acked else 0
    if acked and found != len(acked):
        present = set(psql(s, "SELECT digest FROM tokens WHERE digest IN (%s)" % digests).split())
        lost = [r[0] - killed for r in results
                if r[1] == 200 and r[3] and hashlib.sha256(r[3].encode()).hexdigest() not in present]
        print("  lost: acknowledged at (s after the kill) " + ", ".join("%.3f" % t for t in lost[:10]))
    check(acked and found == len(acked),
          "every acknowledged write is on the new primary (%d of %d)" % (found, len(acked)))
except Exception as e:  # a broken set-up is a failure, with its reason
    check(False, "failover: %r" % e)
finally:
    stop_writing.set()
    if node:
        node.terminate()
        try:
            node.wait(10)
        except subprocess.TimeoutExpired:
            node.kill()
    for d in ("standby", "primary"):
        pid = os.path.join(work, d, "data", "postmaster.pid")
        if os.path.exists(pid):
            try:
                pg(PG + "/pg_ctl", "-D", os.path.join(work, d, "data"), "-m", "immediate", "-w", "stop")
            except subprocess.CalledProcessError:
                pass
    if not failed:
        subprocess.run(["rm", "-rf", work])
    else:
        print("  kept for a look: " + work)
print("failover: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
