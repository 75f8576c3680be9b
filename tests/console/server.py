"""server.py — a `parapet serve --dev` of the console test's own: a fresh
data directory under /tmp, a free loopback port, stopped by its PID; and a
small client of the public API (and of the operator's ingest) for the test
to compare the console's numbers with."""
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

INSECURE = ssl.create_default_context()
INSECURE.check_hostname = False
INSECURE.verify_mode = ssl.CERT_NONE  # the dev server's self-signed certificate, on loopback


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None  # a redirect is an answer to look at


NO_REDIRECT = urllib.request.build_opener(urllib.request.HTTPSHandler(context=INSECURE), _Stay)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, extra=()):
        self.binary = os.path.abspath(binary)
        self.dir = tempfile.mkdtemp(prefix="parapet-console-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.base = f"https://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--dev", "--data", self.data, "--listen", f"127.0.0.1:{self.port}",
             "--no-dns-deploy", "--threads", "2", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.dir)
        deadline = time.time() + 90
        while True:
            try:
                urllib.request.urlopen(self.base + "/console/", context=INSECURE, timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.proc.poll() is not None or time.time() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not start; its log: {self.log.name}")
                time.sleep(0.3)
        with open(os.path.join(self.data, "dev-credentials.json")) as f:
            self.creds = json.load(f)

    def stop(self):
        """SIGTERM, then its exit status (ASan reports leaks and errors there)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not self.log.closed:
            self.log.close()
        return self.proc.returncode

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def admin(self, *args):
        out = subprocess.run([self.binary, "admin", "--data", self.data, *args], check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)

    def fetch(self, path, method="GET", headers=None):
        """Any answer, as (status, headers, body bytes)."""
        req = urllib.request.Request(self.base + path, method=method, headers=headers or {})
        try:
            with NO_REDIRECT.open(req, timeout=30) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def request(self, method, path, query=None, form=None, body=None, headers=None):
        url = self.base + path + ("?" + urllib.parse.urlencode(query, doseq=True) if query else "")
        data = None
        headers = dict(headers or {})
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = body
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, context=INSECURE, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


class Api:
    """The portal app's view of the API, as the test checks it."""

    def __init__(self, server):
        self.s = server
        app = server.creds["portal_app"]
        _, r = server.request("POST", "/oauth/credit/token", form={
            "app_id": app["app_id"], "secret": app["secret"], "grant_type": "client_credential"})
        self.token = r["result"]["access_token"]

    def call(self, method, path, query=None, form=None, json_body=None):
        q = dict(query or {})
        q["access_token"] = self.token
        if json_body is not None:
            return self.s.request(method, "/api" + path, query=q, body=json.dumps(json_body).encode(),
                                  headers={"Content-Type": "application/json"})
        return self.s.request(method, "/api" + path, query=q, form=form)

    def get(self, path, **query):
        status, r = self.call("GET", path, query)
        if r["code"] != 0:
            raise AssertionError(f"GET {path}: {status} {r}")
        return r["result"]


def ingest(server, records):
    """Stores telemetry through the operator's ingest API."""
    token = server.admin("ingest-token", "create", "--name", "console-test")["token"]
    body = "\n".join(json.dumps(r) for r in records).encode()
    status, r = server.request("POST", "/ingest/v1/records", body=body, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/x-ndjson"})
    if status != 200:
        raise AssertionError(f"ingest: {status} {r}")
    return r["result"]
