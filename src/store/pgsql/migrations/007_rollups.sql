-- 007_rollups.sql (PostgreSQL) — two coarser flow roll-ups, kept at ingest
-- beside the per-minute and per-hour ones (docs/telemetry.md), as in the
-- SQLite schema:
-- * tel_site_minutes: per site and minute without the destination address;
-- * tel_flow_days: tel_flow_hours per day (UTC).
CREATE TABLE tel_site_minutes (
    site_rid bigint NOT NULL,
    minute bigint NOT NULL,
    action bigint NOT NULL,
    policy text NOT NULL,
    bytes bigint NOT NULL,
    packets bigint NOT NULL,
    flows bigint NOT NULL,
    PRIMARY KEY (site_rid, minute, action, policy)
);

CREATE TABLE tel_flow_days (
    site_rid bigint NOT NULL,
    dim bigint NOT NULL,
    day bigint NOT NULL,                    -- unix time of the day's start (UTC)
    key text NOT NULL,
    bytes bigint NOT NULL,
    packets bigint NOT NULL,
    flows bigint NOT NULL,
    PRIMARY KEY (site_rid, dim, day, key)
);

INSERT INTO tel_site_minutes
    SELECT site_rid, minute, action, policy, sum(bytes), sum(packets), sum(flows)
    FROM tel_flow_minutes GROUP BY site_rid, minute, action, policy;
INSERT INTO tel_flow_days
    SELECT site_rid, dim, hour - hour % 86400, key, sum(bytes), sum(packets), sum(flows)
    FROM tel_flow_hours GROUP BY site_rid, dim, hour - hour % 86400, key;
