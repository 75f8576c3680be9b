-- 001_init.sql — portals, apps, customers, installations, codes, tokens, ASN registry.
CREATE TABLE portals (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE apps (
    id TEXT PRIMARY KEY,
    kind INTEGER NOT NULL CHECK (kind IN (1, 2)),   -- 1 portal app, 2 installed app
    portal_id TEXT REFERENCES portals(id),
    name TEXT NOT NULL,
    host_url TEXT NOT NULL DEFAULT '',
    secret_digest TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    CHECK ((kind = 1) = (portal_id IS NOT NULL))
);

CREATE TABLE app_allow (
    app_id TEXT NOT NULL REFERENCES apps(id),
    cidr TEXT NOT NULL,
    PRIMARY KEY (app_id, cidr)
);

CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    portal_id TEXT NOT NULL REFERENCES portals(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    svc_ap INTEGER NOT NULL DEFAULT 1,
    svc_op INTEGER NOT NULL DEFAULT 1,
    svc_dns INTEGER NOT NULL DEFAULT 1,
    svc_cdn INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);
CREATE INDEX customers_by_portal ON customers(portal_id, created_at);

CREATE TABLE installations (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    xspe_digest TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (app_id, customer_id)
);

CREATE TABLE auth_codes (
    digest TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    grant_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE tokens (
    digest TEXT PRIMARY KEY,
    type INTEGER NOT NULL CHECK (type IN (1, 2)),   -- 1 access, 2 refresh
    app_id TEXT NOT NULL REFERENCES apps(id),
    portal_id TEXT NOT NULL DEFAULT '',
    customer_id TEXT NOT NULL DEFAULT '',
    grant_id TEXT NOT NULL DEFAULT '',
    scope TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tokens_by_grant ON tokens(grant_id) WHERE grant_id <> '';
CREATE INDEX tokens_by_app ON tokens(app_id);
CREATE INDEX tokens_by_expiry ON tokens(expires_at);

CREATE TABLE asn_prefixes (
    asn INTEGER NOT NULL,
    prefix TEXT NOT NULL,
    max_length INTEGER NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (asn, prefix, max_length)
);
