#!/usr/bin/python3
"""notify-listen.py SOCKET LOG — stands in for systemd's notification socket
(sd_notify(3)): receives datagrams on the Unix socket SOCKET and appends
each to LOG, one message per line (newlines inside become spaces)."""
import os
import socket
import sys

path, log = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
os.umask(0)  # made writable for the service's user as it is bound
s.bind(path)
with open(log, "a", buffering=1) as out:
    while True:
        data = s.recv(4096)
        out.write(data.decode(errors="replace").replace("\n", " ").strip() + "\n")
