-- 001_init.sql (PostgreSQL) — portals, apps, customers, installations, codes,
-- tokens, ASN registry. The same history as the SQLite schema; `seq` columns
-- give the creation order SQLite's rowid gives.
CREATE SEQUENCE data_version; -- bumped after every commit that wrote (pgsql/db.h)

CREATE TABLE portals (
    id text PRIMARY KEY,
    name text NOT NULL,
    created_at bigint NOT NULL,
    seq bigserial NOT NULL
);

CREATE TABLE apps (
    id text PRIMARY KEY,
    kind integer NOT NULL CHECK (kind IN (1, 2)),   -- 1 portal app, 2 installed app
    portal_id text REFERENCES portals(id),
    name text NOT NULL,
    host_url text NOT NULL DEFAULT '',
    secret_digest text NOT NULL,
    revoked integer NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    seq bigserial NOT NULL,
    CHECK ((kind = 1) = (portal_id IS NOT NULL))
);

CREATE TABLE app_allow (
    app_id text NOT NULL REFERENCES apps(id),
    cidr text NOT NULL,
    seq bigserial NOT NULL,
    PRIMARY KEY (app_id, cidr)
);

CREATE TABLE customers (
    id text PRIMARY KEY,
    portal_id text NOT NULL REFERENCES portals(id),
    name text NOT NULL,
    email text NOT NULL DEFAULT '',
    company text NOT NULL DEFAULT '',
    phone text NOT NULL DEFAULT '',
    address text NOT NULL DEFAULT '',
    website text NOT NULL DEFAULT '',
    svc_ap integer NOT NULL DEFAULT 1,
    svc_op integer NOT NULL DEFAULT 1,
    svc_dns integer NOT NULL DEFAULT 1,
    svc_cdn integer NOT NULL DEFAULT 1,
    created_at bigint NOT NULL,
    seq bigserial NOT NULL
);
CREATE INDEX customers_by_portal ON customers(portal_id, created_at, seq);
CREATE INDEX customers_by_time ON customers(created_at, seq);

CREATE TABLE installations (
    id text PRIMARY KEY,
    app_id text NOT NULL REFERENCES apps(id),
    customer_id text NOT NULL REFERENCES customers(id),
    xspe_digest text NOT NULL,
    created_at bigint NOT NULL,
    seq bigserial NOT NULL,
    UNIQUE (app_id, customer_id)
);

CREATE TABLE auth_codes (
    digest text PRIMARY KEY,
    app_id text NOT NULL REFERENCES apps(id),
    customer_id text NOT NULL REFERENCES customers(id),
    grant_id text NOT NULL,
    scope text NOT NULL,
    expires_at bigint NOT NULL,
    used integer NOT NULL DEFAULT 0
);

CREATE TABLE tokens (
    digest text PRIMARY KEY,
    type integer NOT NULL CHECK (type IN (1, 2)),   -- 1 access, 2 refresh
    app_id text NOT NULL REFERENCES apps(id),
    portal_id text NOT NULL DEFAULT '',
    customer_id text NOT NULL DEFAULT '',
    grant_id text NOT NULL DEFAULT '',
    scope text NOT NULL DEFAULT '',
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used integer NOT NULL DEFAULT 0,
    revoked integer NOT NULL DEFAULT 0,
    seq bigserial NOT NULL
);
CREATE INDEX tokens_by_grant ON tokens(grant_id) WHERE grant_id <> '';
CREATE INDEX tokens_by_app ON tokens(app_id);
CREATE INDEX tokens_by_expiry ON tokens(expires_at);

CREATE TABLE asn_prefixes (
    asn bigint NOT NULL,
    prefix text NOT NULL,
    max_length integer NOT NULL,
    source text NOT NULL DEFAULT '',
    PRIMARY KEY (asn, prefix, max_length)
);
