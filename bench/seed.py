#!/usr/bin/env python3
"""bench/seed.py — builds, through the public API over one keep-alive HTTPS
connection, the documents bench/run reads at their family's largest, and
prints the paths to read and write as shell assignments (NAME='value').

Usage: bench/seed.py HOST:PORT TOKEN CUSTOMER_ID
The customer needs the op and ap services, the store ROAs of AS64496 for
198.18.0.0/15 (max length 32) and 11.0.0.0/8 and 12.0.0.0/8 (max length 24),
and IPv4 and IPv6 VIP pools (bench/run sets these up with `parapet admin`)."""
import http.client
import json
import ssl
import sys
import urllib.parse

HOSTPORT, TOKEN, CUST = sys.argv[1:4]
ctx = ssl._create_unverified_context()
conn = http.client.HTTPSConnection(HOSTPORT, context=ctx)


def call(method, path, form=None, body=None):
    """One request; the result member of a success, or exit with the envelope."""
    sep = "&" if "?" in path else "?"
    url = "/api" + path + sep + "access_token=" + TOKEN
    headers = {}
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif body is not None:
        body = json.dumps(body)
        headers["Content-Type"] = "application/json"
    conn.request(method, url, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    env = json.loads(data)
    if resp.status != 200:
        sys.exit("seed: %s %s: %d %s" % (method, path, resp.status, data[:300]))
    return env.get("result")


def out(name, value):
    print("%s='%s'" % (name, value))


C = "/spe/customer/" + CUST

# CleanPipe: one site with 1,000 hosts (CP_MAX_HOSTS), each with its own
# overview policy, so that the overview lists 1,000 host policies.
cp_site = call("POST", C + "/cp/site", body={
    "site_name": "bench_cp", "cidr": ["198.18.0.0/22"], "mitigation_group_profile_id": 1})["site_id"]
hosts = []
for i in range(1000):
    addr = "198.18.%d.%d" % (i // 250, 1 + i % 250)
    hosts.append(call("POST", C + "/cp/site/%s/host" % cp_site,
                      body={"host_name": "h%d" % i, "cidr": [addr]})["host_id"])
call("POST", C + "/cp/site/%s/policy/overview" % cp_site,
     body={"hosts": [{"host_id": h, "policy": {"custom": 1, "detection": 1}} for h in hosts]})
out("CP_OVERVIEW", C + "/cp/site/%s/policy/overview" % cp_site)

# Origin Protection: 100 sites of the customer, each with a network and a
# host, for the site report.
for i in range(100):
    block = "198.19.%d.0/24" % i
    site = call("POST", C + "/op/site", form={"site_name": "s%d" % i, "as_num": 64496, "cidr": block})["site_id"]
    net = call("POST", C + "/op/site/%s/network" % site, form={"network_name": "n", "cidr": block})["network_id"]
    host = call("POST", C + "/op/site/%s/network/%s/host" % (site, net),
                form={"host_name": "h", "cidr": "198.19.%d.1" % i})["host_id"]
out("OP_REPORT", C + "/op/site-report")
# The write rows' create/delete cycles (bench/writes.lua): networks come and
# go in a site of 12.0.0.0/8, hosts in its networks 12.200.R.0/24, one per
# round R.
cycle = call("POST", C + "/op/site", form={"site_name": "cycle", "as_num": 64496, "cidr": "12.0.0.0/8"})["site_id"]
out("CYCLE_SITE", cycle)
out("CYCLE_NETS", " ".join(call("POST", C + "/op/site/%s/network" % cycle,
                                form={"network_name": "hosts%d" % r, "cidr": "12.200.%d.0/24" % r})["network_id"]
                           for r in range(10)))
out("OP_SITE", site)
out("OP_NET", net)
out("OP_HOST", host)

# Application Protection: a site with a domain; its HTTPS port's AppShield
# switches and OWASP view.
ap_site = call("POST", C + "/ap/site", form={
    "site_name": "bench_ap", "backend_type": 0, "service_plan": "basic", "backend_ip": "203.0.113.30"})["site_id"]
dom = call("POST", C + "/ap/site/%s/domain" % ap_site, form={"domain_name": "bench.shop.example"})["domain_id"]
ports = call("GET", C + "/ap/site/%s/domain/%s" % (ap_site, dom))
port = ports["https_port_list"][0]["domain_port_id"]
out("AP_WAF80", "/spe/ap/customer/%s/site/%s/domain-port/%s/policy/waf" % (
    CUST, ap_site, ports["http_port_list"][0]["domain_port_id"]))
out("AP_SWITCHES", "/policy/appshield/customer/%s/site/%s/domain-port/%s/switches" % (CUST, ap_site, port))
waf = "/spe/ap/customer/%s/site/%s/domain-port/%s/policy/waf" % (CUST, ap_site, port)
out("AP_OWASP", waf + "/owasp")
out("AP_WAF", waf)
rule = call("POST", waf + "/custom-rule", body={
    "rule_name": "bench", "conditions": [{"field": "path", "operator": "begins_with", "value": "/admin"}],
    "action": "block"})["rule_id"]
out("AP_RULE", rule)
