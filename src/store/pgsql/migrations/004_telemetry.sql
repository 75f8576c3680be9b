-- 004_telemetry.sql (PostgreSQL) — what network software sees
-- (docs/telemetry.md): ingest credentials, DDoS events, flow records and
-- their roll-ups, WAF log entries grouped into WAF events, flow-down events
-- and bandwidth samples. The same tables and keys as the SQLite schema;
-- bigserial where SQLite's rowid gives the order (eid, weid, lid). Every row
-- names the site (resources.rid, never reused) it was attributed to at
-- ingest; dashboards reach rows only through a site the caller may see, and
-- the retention sweep removes the rows of deleted sites.

CREATE TABLE ingest_tokens (
    id text PRIMARY KEY,                    -- 16 hex, public
    name text NOT NULL,
    digest text NOT NULL UNIQUE,            -- SHA-256 of the bearer token, hex
    created_at bigint NOT NULL,
    revoked integer NOT NULL DEFAULT 0
);

-- DDoS events of the three families. alert_id is the producer's id, the
-- idempotency key and the event_id of the API paths.
CREATE TABLE tel_ddos_events (
    eid bigserial PRIMARY KEY,
    alert_id text NOT NULL UNIQUE,
    family text NOT NULL CHECK (family IN ('op', 'cp', 'ap')),
    customer_id text NOT NULL,
    site_rid bigint NOT NULL,
    holder_rid bigint NOT NULL,             -- the site, network or host holding site_ip (AP: the site)
    holder_kind text NOT NULL,              -- its kind: op.site, op.network, op.host, cp.site, cp.host, ap.site
    attack_type text NOT NULL,
    start_time bigint NOT NULL,
    end_time bigint,                        -- NULL while ongoing
    max_bps bigint NOT NULL DEFAULT 0,
    max_pps bigint NOT NULL DEFAULT 0,
    severity bigint NOT NULL,               -- 0 low, 1 medium, 2 high, 3 blackhole (each family maps it)
    site_ip text NOT NULL,                  -- canonical address or block
    ip_lo bytea NOT NULL,                   -- its first and last address as address_blocks keys
    ip_hi bytea NOT NULL,
    profile_name text NOT NULL DEFAULT '',
    profile_desc text NOT NULL DEFAULT '',
    p_type bigint NOT NULL DEFAULT 0,       -- CleanPipe: 0 alert from mitigation, 1 from auto mitigation
    stopped_by text NOT NULL DEFAULT ''     -- '' (the producer's end_time) or 'api' (CleanPipe stop)
);
CREATE INDEX tel_ddos_by_site ON tel_ddos_events(site_rid, start_time);
CREATE INDEX tel_ddos_by_customer ON tel_ddos_events(customer_id, family, start_time);
CREATE INDEX tel_ddos_ongoing ON tel_ddos_events(site_rid) WHERE end_time IS NULL;

-- Flow records by site and time. fid is a 63-bit digest of the producer's
-- flow_id: a re-sent record has the same key and is ignored. bytes and
-- packets are already multiplied by the sampling rate.
CREATE TABLE tel_flows (
    site_rid bigint NOT NULL,
    ts bigint NOT NULL,
    fid bigint NOT NULL,
    holder_rid bigint NOT NULL,             -- most specific resource holding dst
    router text NOT NULL,
    src bytea NOT NULL,                     -- 17-byte address keys (family, 16 bytes)
    dst bytea NOT NULL,
    src_port bigint NOT NULL,
    dst_port bigint NOT NULL,
    protocol bigint NOT NULL,
    bytes bigint NOT NULL,
    packets bigint NOT NULL,
    src_as bigint NOT NULL,
    country text NOT NULL,                  -- ISO 3166 alpha-2 of src, '' unknown
    app text NOT NULL,
    action bigint NOT NULL,                 -- 0 passed, 1 dropped
    policy text NOT NULL,                   -- countermeasure / policy type ('' none)
    PRIMARY KEY (site_rid, ts, fid)
);

-- Per-minute roll-up of flows: site, minute, destination, action, policy.
CREATE TABLE tel_flow_minutes (
    site_rid bigint NOT NULL,
    minute bigint NOT NULL,                 -- unix time of the minute's start
    dst bytea NOT NULL,
    action bigint NOT NULL,
    policy text NOT NULL,
    bytes bigint NOT NULL,
    packets bigint NOT NULL,
    flows bigint NOT NULL,
    PRIMARY KEY (site_rid, minute, dst, action, policy)
);

-- Per-hour roll-up of flows by one dimension (dim: 1 app, 2 source AS,
-- 3 source country, 4 destination address, 5 protocol).
CREATE TABLE tel_flow_hours (
    site_rid bigint NOT NULL,
    dim bigint NOT NULL,
    hour bigint NOT NULL,                   -- unix time of the hour's start
    key text NOT NULL,
    bytes bigint NOT NULL,
    packets bigint NOT NULL,
    flows bigint NOT NULL,
    PRIMARY KEY (site_rid, dim, hour, key)
);

-- WAF events: log entries of one domain port grouped by the quiet-gap rule
-- (docs/telemetry.md). end_time is the last entry's time.
CREATE TABLE tel_waf_events (
    weid bigserial PRIMARY KEY,
    event_id text NOT NULL UNIQUE,          -- 16 hex, public
    customer_id text NOT NULL,
    site_rid bigint NOT NULL,
    domain_rid bigint NOT NULL,
    port_rid bigint NOT NULL,               -- the domain port (ap.domain_port), or the domain for site level
    domain_port_id text NOT NULL,
    domain_name text NOT NULL,
    start_time bigint NOT NULL,
    end_time bigint NOT NULL,
    attack_count bigint NOT NULL,
    severity bigint NOT NULL                -- 0 low, 1 medium, 2 high: the highest of its entries
);
CREATE INDEX tel_waf_events_by_site ON tel_waf_events(site_rid, start_time);
-- by end: a port's events never overlap (entries that bridge two merge them),
-- so the events near an entry are the first ones ending after it minus the gap
CREATE INDEX tel_waf_events_by_port ON tel_waf_events(port_rid, end_time);

-- Counts per WAF event and dimension (1 attack type, 2 source country, 3 URL path).
CREATE TABLE tel_waf_event_counts (
    weid bigint NOT NULL,
    dim bigint NOT NULL,
    key text NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (weid, dim, key)
);

-- WAF log entries (document 002's members, as answered, in entry).
CREATE TABLE tel_waf_logs (
    lid bigserial PRIMARY KEY,
    log_id text NOT NULL UNIQUE,            -- the entry's _id
    weid bigint NOT NULL,
    site_rid bigint NOT NULL,
    ts bigint NOT NULL,
    severity bigint NOT NULL,
    attack_type text NOT NULL,
    country text NOT NULL,
    path text NOT NULL,
    entry text NOT NULL                     -- JSON object, as received (text keeps its bytes)
);
CREATE INDEX tel_waf_logs_by_event ON tel_waf_logs(weid, ts);
CREATE INDEX tel_waf_logs_by_time ON tel_waf_logs(ts);

-- Flow-down events: a router stopped exporting a site's flows.
CREATE TABLE tel_flow_downs (
    alert_id text PRIMARY KEY,
    customer_id text NOT NULL,
    site_rid bigint NOT NULL,
    router_name text NOT NULL,
    start_time bigint NOT NULL,
    end_time bigint                         -- NULL while ongoing
);
CREATE INDEX tel_flow_downs_by_site ON tel_flow_downs(site_rid, start_time);

-- Bandwidth samples of Application Protection sites: bits/s averaged over
-- one minute, per reporting node (summed over nodes when read).
CREATE TABLE tel_bandwidth (
    site_rid bigint NOT NULL,
    minute bigint NOT NULL,
    node text NOT NULL,
    raw_in bigint NOT NULL,
    raw_out bigint NOT NULL,
    clean_in bigint NOT NULL,
    clean_out bigint NOT NULL,
    PRIMARY KEY (site_rid, minute, node)
);
