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
- every acknowledged token (answered 200) is on the new primary.
It prints the outage the clients saw (first failed answer to the first
success after the promotion). Ends with "failover: N passed, N failed"."""
import hashlib
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

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
results_mu = threading.Lock()
stop_writing = threading.Event()


def writer(port, creds):
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    body = urllib.parse.urlencode(creds)
    conn = None
    while not stop_writing.is_set():
        try:
            if conn is None:
                conn = http.client.HTTPSConnection("127.0.0.1", port, context=tls, timeout=30)
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
    port = free_port()
    node = subprocess.Popen([binary, "serve", "--data", work + "/node", "--listen", "127.0.0.1:%d" % port,
                             "--rate-limit", "0", "--no-dns-deploy", "--no-nginx-deploy",
                             "--no-fastnetmon-deploy", "--no-bird-deploy"], env=env,
                            stdout=open(work + "/node.log", "wb"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    creds = {"app_id": app["app_id"], "secret": app["secret"], "grant_type": "client_credential"}
    writers = [threading.Thread(target=writer, args=(port, creds)) for _ in range(4)]
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
    time.sleep(0.5)
    stop_writing.set()
    for w in writers:
        w.join(60)

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
