-- 002_dns.sql (PostgreSQL) — DNS Protection zones, their master servers, and
-- what the deployer last served.
CREATE TABLE dns_zones (
    id bigint PRIMARY KEY,                  -- random, never sequential (documents: integer)
    customer_id text NOT NULL REFERENCES customers(id),
    name text NOT NULL UNIQUE,              -- canonical: lowercase Punycode, no trailing dot
    origin_name text NOT NULL,              -- as the client sent it
    is_zone_transfer integer NOT NULL CHECK (is_zone_transfer IN (0, 1)),
    enable_dnssec integer NOT NULL DEFAULT 0,
    enable_root_cname integer NOT NULL DEFAULT 0,
    multi_signer_enabled integer NOT NULL DEFAULT 0,
    multi_signer_ips text NOT NULL DEFAULT '[]',   -- JSON array of canonical addresses
    generation bigint NOT NULL DEFAULT 1,          -- bumped by every change
    deploy_state text NOT NULL DEFAULT 'pending'
        CHECK (deploy_state IN ('pending', 'deployed', 'failed')),
    deploy_reason text NOT NULL DEFAULT '',
    deployed_spec text,                            -- JSON of the settings last served (NULL: never)
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CHECK (NOT (enable_dnssec <> 0 AND enable_root_cname <> 0)),
    CHECK (enable_dnssec <> 0 OR multi_signer_enabled = 0)
);
CREATE INDEX dns_zones_by_customer ON dns_zones(customer_id, name);

CREATE TABLE dns_master_servers (
    zone_id bigint NOT NULL REFERENCES dns_zones(id) ON DELETE CASCADE,
    position integer NOT NULL,
    ip text NOT NULL,
    key_name text NOT NULL DEFAULT '',
    secret text NOT NULL DEFAULT '',
    algorithm text NOT NULL DEFAULT '',
    PRIMARY KEY (zone_id, ip)
);
CREATE INDEX dns_master_servers_by_key ON dns_master_servers(key_name) WHERE key_name <> '';
