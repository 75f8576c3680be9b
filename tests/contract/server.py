"""server.py: a `parapet serve --dev` instance for the contract test, in a
temporary data directory on a free loopback port, stopped by its PID. The
dev seed gives it real state: a portal, apps, customers, an Origin
Protection, a CleanPipe and an Application Protection site, and 30 days of
simulated telemetry."""
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevServer:
    def __init__(self, binary):
        self.binary = binary
        self.data = tempfile.mkdtemp(prefix="parapet-contract.")
        self.port = free_port()
        self.base = "https://127.0.0.1:%d" % self.port
        self.log = os.path.join(self.data, "server.log")
        self.proc = None

    def start(self, timeout=90):
        args = [self.binary, "serve", "--dev", "--data", self.data + "/d",
                "--listen", "127.0.0.1:%d" % self.port, "--threads", "2",
                "--no-dns-deploy", "--no-nginx-deploy", "--no-fastnetmon-deploy",
                "--no-bird-deploy", "--rate-limit", "0"]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited (%d); log: %s" % (self.proc.returncode, self.log))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("the server did not start in %d s; log: %s" % (timeout, self.log))
        with open(os.path.join(self.data, "d", "dev-credentials.json")) as f:
            self.credentials = json.load(f)
        self.tls = ssl.create_default_context(cafile=os.path.join(self.data, "d", "tls", "cert.pem"))
        self.tls.check_hostname = False

    def admin(self, *args):
        out = subprocess.run([self.binary, "admin", "--data", self.data + "/d"] + list(args),
                             check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    def stop(self, keep=False):
        """Stops the server (SIGTERM to its PID); returns its exit status.
        The data directory stays when keep is true (a failed run)."""
        rc = None
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                rc = self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                rc = self.proc.wait()
        elif self.proc:
            rc = self.proc.returncode
        if not keep:
            shutil.rmtree(self.data, ignore_errors=True)
        return rc
