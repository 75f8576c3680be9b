-- 011_site_hours.sql — the per-minute sums of a whole site are kept one row
-- per hour: tel_site_hours holds in `mins` the hour's 60 minutes of bytes
-- and packets (store/tel_vector.h; tel_minutes_vector and tel_minutes_add
-- are parapet's SQL functions, sqlite/tel_vector_sql.c). A month of a
-- customer's CleanPipe sites is then a few thousand rows instead of half a
-- million (bench/telemetry, cp.dashboard.policy), and an ingest writes one
-- row per site and hour instead of one per minute.
CREATE TABLE tel_site_hours (
    site_rid INTEGER NOT NULL,
    hour INTEGER NOT NULL,                  -- unix time of the hour's start
    action INTEGER NOT NULL,
    policy TEXT NOT NULL,
    mins BLOB NOT NULL,                     -- 60 x (bytes, packets), big-endian int64
    flows INTEGER NOT NULL,                 -- the hour's flows
    PRIMARY KEY (site_rid, hour, action, policy)
) WITHOUT ROWID;

INSERT INTO tel_site_hours
    SELECT site_rid, minute - minute % 3600, action, policy,
           tel_minutes_vector(minute % 3600 / 60, bytes, packets), sum(flows)
    FROM tel_site_minutes GROUP BY site_rid, minute - minute % 3600, action, policy;
DROP TABLE tel_site_minutes;
