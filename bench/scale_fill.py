#!/usr/bin/env python3
"""bench/scale_fill.py — the bulk path of bench/scale: inserts Origin
Protection sites, their one network and its hosts straight into a parapet
SQLite store, in exactly the rows res_create and blocks_set write
(src/store/sqlite/resources.c, sqlite/blocks.c):

  resources       kind, 16-hex random id, customer, parent rid, name and its
                  scope ('c:<customer>' for a site, 'r:<parent rid>' below),
                  restricts (networks and hosts restrict their parent's
                  delete), the JSON document, timestamps
  address_blocks  one block per resource: canonical prefix, and the 17-byte
                  range keys of core/block_key.c (family byte 4, the IPv4
                  address, 12 zero bytes)

Usage: scale_fill.py DB SITES HOSTS_PER_SITE CUSTOMER_ID...
Site i belongs to customer i // 1000 and holds 11.0.0.0 + 256 i (/24); its
network holds the same block, its hosts .1 to .HOSTS_PER_SITE."""
import json
import os
import sqlite3
import sys
import time

db, sites, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
customers = sys.argv[4:]
con = sqlite3.connect(db)
con.execute("PRAGMA synchronous = OFF")
(base,) = con.execute(
    "SELECT max(coalesce((SELECT max(rid) FROM resources), 0), (SELECT rid FROM resource_rid_floor)) + 1").fetchone()
now = int(time.time())


def dotted(a):
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


def key(a):
    return b"\x04" + a.to_bytes(4, "big") + bytes(12)


def rows():
    """(resource row, block row) pairs, parents before children."""
    for i in range(sites):
        cust = customers[i // 1000]
        addr = 0x0B000000 + 256 * i
        block = dotted(addr) + "/24"
        site, net = base + i, base + sites + i
        yield ((site, "op.site", os.urandom(8).hex(), cust, None, "s%d" % i, "c:" + cust, 0,
                json.dumps({"as_num": 64496, "cidr": [block], "site_desc": ""}, separators=(",", ":"))),
               (site, cust, "op.site", 1, block, key(addr), key(addr + 255)))
        yield ((net, "op.network", os.urandom(8).hex(), cust, site, "n", "r:%d" % site, 1,
                json.dumps({"cidr": [block], "network_desc": ""}, separators=(",", ":"))),
               (net, cust, "op.network", 0, block, key(addr), key(addr + 255)))
        for j in range(1, per + 1):
            host = base + 2 * sites + i * per + j - 1
            h = dotted(addr + j) + "/32"
            yield ((host, "op.host", os.urandom(8).hex(), cust, net, "h%d" % j, "r:%d" % net, 1,
                    json.dumps({"cidr": [h], "host_desc": ""}, separators=(",", ":"))),
                   (host, cust, "op.host", 0, h, key(addr + j), key(addr + j)))


with con:
    batch = []
    for res, blk in rows():
        batch.append((res, blk))
        if len(batch) == 50000:
            con.executemany("INSERT INTO resources (rid, kind, id, customer_id, parent_rid, name, name_scope, "
                            "restricts, doc, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,%d,%d)" % (now, now),
                            [r for r, _ in batch])
            con.executemany("INSERT INTO address_blocks (rid, position, customer_id, kind, top_level, prefix, lo, hi) "
                            "VALUES (?,0,?,?,?,?,?,?)", [b for _, b in batch])
            batch = []
    if batch:
        con.executemany("INSERT INTO resources (rid, kind, id, customer_id, parent_rid, name, name_scope, "
                        "restricts, doc, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,%d,%d)" % (now, now),
                        [r for r, _ in batch])
        con.executemany("INSERT INTO address_blocks (rid, position, customer_id, kind, top_level, prefix, lo, hi) "
                        "VALUES (?,0,?,?,?,?,?,?)", [b for _, b in batch])
con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
con.close()
