-- 007_rollups.sql — two coarser flow roll-ups, kept at ingest beside the
-- per-minute and per-hour ones (docs/telemetry.md), so that a month of a
-- busy operator answers fast (bench/telemetry, 10 M flows):
-- * tel_site_minutes: per site and minute without the destination address
--   (CleanPipe policy chart over a month of a customer's sites: 480 ms from
--   tel_flow_minutes);
-- * tel_flow_days: tel_flow_hours per day (network_summary month: 360 ms
--   from the hours).
CREATE TABLE tel_site_minutes (
    site_rid INTEGER NOT NULL,
    minute INTEGER NOT NULL,
    action INTEGER NOT NULL,
    policy TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    packets INTEGER NOT NULL,
    flows INTEGER NOT NULL,
    PRIMARY KEY (site_rid, minute, action, policy)
) WITHOUT ROWID;

CREATE TABLE tel_flow_days (
    site_rid INTEGER NOT NULL,
    dim INTEGER NOT NULL,
    day INTEGER NOT NULL,                   -- unix time of the day's start (UTC)
    key TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    packets INTEGER NOT NULL,
    flows INTEGER NOT NULL,
    PRIMARY KEY (site_rid, dim, day, key)
) WITHOUT ROWID;

INSERT INTO tel_site_minutes
    SELECT site_rid, minute, action, policy, sum(bytes), sum(packets), sum(flows)
    FROM tel_flow_minutes GROUP BY site_rid, minute, action, policy;
INSERT INTO tel_flow_days
    SELECT site_rid, dim, hour - hour % 86400, key, sum(bytes), sum(packets), sum(flows)
    FROM tel_flow_hours GROUP BY site_rid, dim, hour - hour % 86400, key;
