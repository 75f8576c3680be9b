-- 008_audit.sql (PostgreSQL) — the audit log: one row per committed write
-- through the API, written in the write's own transaction.
CREATE TABLE audit_log (
    seq bigserial PRIMARY KEY,
    ts bigint NOT NULL,
    request_id text NOT NULL,
    route text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    status integer NOT NULL,
    app_id text NOT NULL,
    portal_id text NOT NULL,
    customer_id text NOT NULL,
    client text NOT NULL,
    target text NOT NULL,
    changes text NOT NULL
);
CREATE INDEX audit_by_time ON audit_log (ts);
