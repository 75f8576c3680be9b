-- 013_dst_cells.sql — the flow roll-ups by destination address are kept one
-- row per site and period: `cells` holds the period's destinations (with
-- action and policy per minute) and their sums, sorted (store/tel_cells.h;
-- tel_cells_pack, tel_cells_add and tel_cells_sum are parapet's SQL
-- functions, sqlite/tel_cells_sql.c). At a month of a busy operator nearly
-- every flow had a destination row of its own in each of tel_flow_minutes,
-- tel_flow_hours and tel_flow_days: an ingest now writes one row per site and
-- minute, hour and day (bench/telemetry, docs/telemetry.md).
CREATE TABLE tel_dst_minutes (
    site_rid INTEGER NOT NULL,
    minute INTEGER NOT NULL,                -- unix time of the minute's start
    cells BLOB NOT NULL,                    -- (dst, action, policy) -> bytes, packets, flows
    PRIMARY KEY (site_rid, minute)
) WITHOUT ROWID;

CREATE TABLE tel_dst_hours (
    site_rid INTEGER NOT NULL,
    hour INTEGER NOT NULL,                  -- unix time of the hour's start
    cells BLOB NOT NULL,                    -- dst -> bytes, packets, flows (action 0, policy '')
    PRIMARY KEY (site_rid, hour)
) WITHOUT ROWID;

CREATE TABLE tel_dst_days (
    site_rid INTEGER NOT NULL,
    day INTEGER NOT NULL,                   -- unix time of the day's start (UTC)
    cells BLOB NOT NULL,
    PRIMARY KEY (site_rid, day)
) WITHOUT ROWID;

INSERT INTO tel_dst_minutes
    SELECT site_rid, minute, tel_cells_pack(dst, action, policy, bytes, packets, flows)
    FROM tel_flow_minutes GROUP BY site_rid, minute;
INSERT INTO tel_dst_hours
    SELECT site_rid, hour, tel_cells_pack(key, 0, '', bytes, packets, flows)
    FROM tel_flow_hours WHERE dim = 4 GROUP BY site_rid, hour;
INSERT INTO tel_dst_days
    SELECT site_rid, day, tel_cells_pack(key, 0, '', bytes, packets, flows)
    FROM tel_flow_days WHERE dim = 4 GROUP BY site_rid, day;
DROP TABLE tel_flow_minutes;
DELETE FROM tel_flow_hours WHERE dim = 4;
DELETE FROM tel_flow_days WHERE dim = 4;
