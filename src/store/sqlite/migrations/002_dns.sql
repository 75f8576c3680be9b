-- 002_dns.sql — DNS Protection zones, their master servers, and what the deployer last served.
CREATE TABLE dns_zones (
    id INTEGER PRIMARY KEY,                 -- random, never sequential (documents: integer)
    customer_id TEXT NOT NULL REFERENCES customers(id),
    name TEXT NOT NULL UNIQUE,              -- canonical: lowercase Punycode, no trailing dot
    origin_name TEXT NOT NULL,              -- as the client sent it
    is_zone_transfer INTEGER NOT NULL CHECK (is_zone_transfer IN (0, 1)),
    enable_dnssec INTEGER NOT NULL DEFAULT 0,
    enable_root_cname INTEGER NOT NULL DEFAULT 0,
    multi_signer_enabled INTEGER NOT NULL DEFAULT 0,
    multi_signer_ips TEXT NOT NULL DEFAULT '[]',   -- JSON array of canonical addresses
    generation INTEGER NOT NULL DEFAULT 1,         -- bumped by every change
    deploy_state TEXT NOT NULL DEFAULT 'pending'
        CHECK (deploy_state IN ('pending', 'deployed', 'failed')),
    deploy_reason TEXT NOT NULL DEFAULT '',        -- why the last deploy of this generation failed
    deployed_spec TEXT,                            -- JSON of the settings last served (NULL: never)
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK (NOT (enable_dnssec AND enable_root_cname)),
    CHECK (enable_dnssec OR NOT multi_signer_enabled)
);
CREATE INDEX dns_zones_by_customer ON dns_zones(customer_id, name);

CREATE TABLE dns_master_servers (
    zone_id INTEGER NOT NULL REFERENCES dns_zones(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,              -- order as configured
    ip TEXT NOT NULL,                       -- canonical address
    key_name TEXT NOT NULL DEFAULT '',      -- '' = no TSIG
    secret TEXT NOT NULL DEFAULT '',
    algorithm TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (zone_id, ip)
);
CREATE INDEX dns_master_servers_by_key ON dns_master_servers(key_name) WHERE key_name <> '';
