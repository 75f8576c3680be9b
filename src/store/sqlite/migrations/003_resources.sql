-- 003_resources.sql — the generic resource layer (docs/architecture.md): every
-- resource of Origin Protection, CleanPipe and Application Protection is a row
-- here, its particulars a JSON document; the address blocks any of them holds
-- are indexed beside; the operator's catalogue is a table of JSON values.
CREATE TABLE resources (
    rid INTEGER PRIMARY KEY,                -- internal key; parents point at it
    kind TEXT NOT NULL,                     -- "op.site", "cp.host", "ap.domain", ...
    id TEXT NOT NULL,                       -- public id: 16 hex, or a decimal serial
    customer_id TEXT NOT NULL REFERENCES customers(id),
    parent_rid INTEGER REFERENCES resources(rid),   -- NULL: directly under the customer
    name TEXT COLLATE NOCASE,               -- optional, unique within name_scope
    name_scope TEXT,                        -- 'c:<customer>' / 'r:<parent rid>' / 'g' (platform)
    restricts INTEGER NOT NULL DEFAULT 0,   -- 1: its parent may not be deleted while it exists
    doc TEXT NOT NULL DEFAULT '{}',         -- JSON object
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,     -- bumped by every update (optimistic check)
    UNIQUE (kind, id)
);
CREATE INDEX resources_by_parent ON resources(parent_rid, kind, rid);
CREATE INDEX resources_by_customer ON resources(customer_id, kind, rid);
CREATE UNIQUE INDEX resources_name ON resources(kind, name_scope, name) WHERE name IS NOT NULL;

-- Serial ids (kinds whose ids the documents type as integers): never reused.
CREATE TABLE resource_serials (
    kind TEXT PRIMARY KEY,
    last INTEGER NOT NULL
);

-- Address blocks held by resources. lo/hi are the first and last address as
-- 17 bytes (the family, 4 or 6, then 16 address bytes, IPv4 left-aligned),
-- so BLOB comparison (memcmp) orders them, overlap/containment are range
-- tests, and IPv4 never meets IPv6.
CREATE TABLE address_blocks (
    rid INTEGER NOT NULL REFERENCES resources(rid) ON DELETE CASCADE,
    position INTEGER NOT NULL,              -- order as the client gave them
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                     -- the holder's kind
    top_level INTEGER NOT NULL,             -- 1: the holder has no parent (a protected site)
    prefix TEXT NOT NULL,                   -- canonical "addr/len"
    lo BLOB NOT NULL,
    hi BLOB NOT NULL,
    PRIMARY KEY (rid, position)
);
CREATE INDEX address_blocks_by_lo ON address_blocks(lo, hi);

CREATE TABLE catalogue (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,                    -- JSON
    source TEXT NOT NULL,                   -- 'default' or 'operator'
    updated_at INTEGER NOT NULL
);
