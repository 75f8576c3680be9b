-- 003_resources.sql (PostgreSQL) — the generic resource layer
-- (docs/architecture.md): every resource of Origin Protection, CleanPipe and
-- Application Protection is a row here, its particulars a JSON document; the
-- address blocks any of them holds are indexed beside; the operator's
-- catalogue is a table of JSON values. The document is `json`, not `jsonb`:
-- jsonb reorders an object's members (shorter keys first), and answers echo
-- the stored document in its order (the SQLite store keeps keys sorted); no
-- query looks inside a document.
CREATE TABLE resources (
    rid bigserial PRIMARY KEY,              -- internal key; a sequence: never reused
    kind text NOT NULL,
    id text NOT NULL,
    customer_id text NOT NULL REFERENCES customers(id),
    parent_rid bigint REFERENCES resources(rid),
    name text,                              -- unique within name_scope, ASCII case aside
    name_scope text,
    restricts integer NOT NULL DEFAULT 0,
    doc json NOT NULL DEFAULT '{}',
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    version bigint NOT NULL DEFAULT 1,
    UNIQUE (kind, id)
);
CREATE INDEX resources_by_parent ON resources(parent_rid, kind, rid);
CREATE INDEX resources_by_customer ON resources(customer_id, kind, rid);
CREATE INDEX resources_by_kind ON resources(kind, rid);
-- lower(): ASCII only under the C collation parapet requires, as SQLite's NOCASE
CREATE UNIQUE INDEX resources_name ON resources(kind, name_scope, lower(name)) WHERE name IS NOT NULL;

CREATE TABLE resource_serials (
    kind text PRIMARY KEY,
    last bigint NOT NULL
);

-- Address blocks: lo/hi are the first and last address as 17 bytes (the
-- family, then 16 address bytes, IPv4 left-aligned); bytea compares as
-- memcmp, so overlap and containment are range tests, as in SQLite.
CREATE TABLE address_blocks (
    rid bigint NOT NULL REFERENCES resources(rid) ON DELETE CASCADE,
    position integer NOT NULL,
    customer_id text NOT NULL,
    kind text NOT NULL,
    top_level integer NOT NULL,
    prefix text NOT NULL,
    lo bytea NOT NULL,
    hi bytea NOT NULL,
    PRIMARY KEY (rid, position)
);
CREATE INDEX address_blocks_by_lo ON address_blocks(lo, hi);

CREATE TABLE catalogue (
    key text PRIMARY KEY,
    value text NOT NULL,                    -- JSON (any value)
    source text NOT NULL,
    updated_at bigint NOT NULL
);
