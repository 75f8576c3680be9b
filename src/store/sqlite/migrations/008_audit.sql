-- The audit log: one row per committed write through the API, written in
-- the write's own transaction (src/core/audit.c). Kept --audit-days.
CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,         -- order of commit
    ts INTEGER NOT NULL,             -- unix seconds
    request_id TEXT NOT NULL,        -- as in X-Request-Id and the access log
    route TEXT NOT NULL,             -- endpoint id
    method TEXT NOT NULL,
    path TEXT NOT NULL,              -- without the query string
    status INTEGER NOT NULL,
    app_id TEXT NOT NULL,            -- the caller: app, its portal, the customer acted on
    portal_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    client TEXT NOT NULL,            -- source address
    target TEXT NOT NULL,            -- JSON: the path's ids and the ids the answer created
    changes TEXT NOT NULL            -- JSON: the fields sent, secrets redacted
);
-- one index (retention by time): every write pays for each index, and the
-- admin's filters are rare reads that can scan
CREATE INDEX audit_by_time ON audit_log (ts);
