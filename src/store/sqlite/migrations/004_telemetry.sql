-- 004_telemetry.sql — what network software sees (docs/telemetry.md): ingest
-- credentials, DDoS events, flow records and their roll-ups, WAF log entries
-- grouped into WAF events, flow-down events and bandwidth samples. Every row
-- names the site (resources.rid) it was attributed to at ingest; dashboards
-- reach rows only through a site the caller may see, so a deleted site's rows
-- are unreachable (and removed by the retention sweep).

CREATE TABLE ingest_tokens (
    id TEXT PRIMARY KEY,                    -- 16 hex, public
    name TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,            -- SHA-256 of the bearer token, hex
    created_at INTEGER NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);

-- DDoS events of the three families. alert_id is the producer's id, the
-- idempotency key and the event_id of the API paths.
CREATE TABLE tel_ddos_events (
    eid INTEGER PRIMARY KEY,
    alert_id TEXT NOT NULL UNIQUE,
    family TEXT NOT NULL CHECK (family IN ('op', 'cp', 'ap')),
    customer_id TEXT NOT NULL,
    site_rid INTEGER NOT NULL,
    holder_rid INTEGER NOT NULL,            -- the site, network or host holding site_ip (AP: the site)
    holder_kind TEXT NOT NULL,              -- its kind: op.site, op.network, op.host, cp.site, cp.host, ap.site
    attack_type TEXT NOT NULL,
    start_time INTEGER NOT NULL,
    end_time INTEGER,                       -- NULL while ongoing
    max_bps INTEGER NOT NULL DEFAULT 0,
    max_pps INTEGER NOT NULL DEFAULT 0,
    severity INTEGER NOT NULL,              -- 0 low, 1 medium, 2 high, 3 blackhole (each family maps it)
    site_ip TEXT NOT NULL,                  -- canonical address or block
    ip_lo BLOB NOT NULL,                    -- its first and last address as address_blocks keys
    ip_hi BLOB NOT NULL,
    profile_name TEXT NOT NULL DEFAULT '',
    profile_desc TEXT NOT NULL DEFAULT '',
    p_type INTEGER NOT NULL DEFAULT 0,      -- CleanPipe: 0 alert from mitigation, 1 from auto mitigation
    stopped_by TEXT NOT NULL DEFAULT ''     -- '' (the producer's end_time) or 'api' (CleanPipe stop)
);
CREATE INDEX tel_ddos_by_site ON tel_ddos_events(site_rid, start_time);
CREATE INDEX tel_ddos_by_customer ON tel_ddos_events(customer_id, family, start_time);
CREATE INDEX tel_ddos_ongoing ON tel_ddos_events(site_rid) WHERE end_time IS NULL;

-- Flow records, clustered by site and time. fid is a 63-bit digest of the
-- producer's flow_id: a re-sent record has the same key and is ignored.
-- bytes and packets are already multiplied by the sampling rate.
CREATE TABLE tel_flows (
    site_rid INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    fid INTEGER NOT NULL,
    holder_rid INTEGER NOT NULL,            -- most specific resource holding dst
    router TEXT NOT NULL,
    src BLOB NOT NULL,                      -- 17-byte address keys (family, 16 bytes)
    dst BLOB NOT NULL,
    src_port INTEGER NOT NULL,
    dst_port INTEGER NOT NULL,
    protocol INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    packets INTEGER NOT NULL,
    src_as INTEGER NOT NULL,
    country TEXT NOT NULL,                  -- ISO 3166 alpha-2 of src, '' unknown
    app TEXT NOT NULL,
    action INTEGER NOT NULL,                -- 0 passed, 1 dropped
    policy TEXT NOT NULL,                   -- countermeasure / policy type ('' none)
    PRIMARY KEY (site_rid, ts, fid)
) WITHOUT ROWID;

-- Per-minute roll-up of flows: site, minute, destination, action, policy.
CREATE TABLE tel_flow_minutes (
    site_rid INTEGER NOT NULL,
    minute INTEGER NOT NULL,                -- unix time of the minute's start
    dst BLOB NOT NULL,
    action INTEGER NOT NULL,
    policy TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    packets INTEGER NOT NULL,
    flows INTEGER NOT NULL,
    PRIMARY KEY (site_rid, minute, dst, action, policy)
) WITHOUT ROWID;

-- Per-hour roll-up of flows by one dimension (dim: 1 app, 2 source AS,
-- 3 source country, 4 destination address, 5 protocol).
CREATE TABLE tel_flow_hours (
    site_rid INTEGER NOT NULL,
    dim INTEGER NOT NULL,
    hour INTEGER NOT NULL,                  -- unix time of the hour's start
    key TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    packets INTEGER NOT NULL,
    flows INTEGER NOT NULL,
    PRIMARY KEY (site_rid, dim, hour, key)
) WITHOUT ROWID;

-- WAF events: log entries of one domain port grouped by the quiet-gap rule
-- (docs/telemetry.md). end_time is the last entry's time.
CREATE TABLE tel_waf_events (
    weid INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL UNIQUE,          -- 16 hex, public
    customer_id TEXT NOT NULL,
    site_rid INTEGER NOT NULL,
    domain_rid INTEGER NOT NULL,
    port_rid INTEGER NOT NULL,              -- the domain port (ap.domain_port), or the domain for site level
    domain_port_id TEXT NOT NULL,
    domain_name TEXT NOT NULL,
    start_time INTEGER NOT NULL,
    end_time INTEGER NOT NULL,
    attack_count INTEGER NOT NULL,
    severity INTEGER NOT NULL               -- 0 low, 1 medium, 2 high: the highest of its entries
);
CREATE INDEX tel_waf_events_by_site ON tel_waf_events(site_rid, start_time);
-- by end: a port's events never overlap (entries that bridge two merge them),
-- so the events near an entry are the first ones ending after it minus the gap
CREATE INDEX tel_waf_events_by_port ON tel_waf_events(port_rid, end_time);

-- Counts per WAF event and dimension (1 attack type, 2 source country, 3 URL path).
CREATE TABLE tel_waf_event_counts (
    weid INTEGER NOT NULL,
    dim INTEGER NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (weid, dim, key)
) WITHOUT ROWID;

-- WAF log entries (document 002's members, as answered, in entry).
CREATE TABLE tel_waf_logs (
    lid INTEGER PRIMARY KEY,
    log_id TEXT NOT NULL UNIQUE,            -- the entry's _id
    weid INTEGER NOT NULL,
    site_rid INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    severity INTEGER NOT NULL,
    attack_type TEXT NOT NULL,
    country TEXT NOT NULL,
    path TEXT NOT NULL,
    entry TEXT NOT NULL                     -- JSON object
);
CREATE INDEX tel_waf_logs_by_event ON tel_waf_logs(weid, ts);
CREATE INDEX tel_waf_logs_by_time ON tel_waf_logs(ts);

-- Flow-down events: a router stopped exporting a site's flows.
CREATE TABLE tel_flow_downs (
    alert_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    site_rid INTEGER NOT NULL,
    router_name TEXT NOT NULL,
    start_time INTEGER NOT NULL,
    end_time INTEGER                        -- NULL while ongoing
);
CREATE INDEX tel_flow_downs_by_site ON tel_flow_downs(site_rid, start_time);

-- Bandwidth samples of Application Protection sites: bits/s averaged over
-- one minute, per reporting node (summed over nodes when read).
CREATE TABLE tel_bandwidth (
    site_rid INTEGER NOT NULL,
    minute INTEGER NOT NULL,
    node TEXT NOT NULL,
    raw_in INTEGER NOT NULL,
    raw_out INTEGER NOT NULL,
    clean_in INTEGER NOT NULL,
    clean_out INTEGER NOT NULL,
    PRIMARY KEY (site_rid, minute, node)
) WITHOUT ROWID;
