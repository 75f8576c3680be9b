-- 011_site_hours.sql (PostgreSQL) — as the SQLite schema: a site's
-- per-minute sums are kept one row per hour, tel_site_hours, whose `mins`
-- holds the hour's 60 minutes of bytes and packets as big-endian int8
-- (int8send's order; store/tel_vector.h), 960 bytes. Partitioned by month
-- like the other roll-ups (pg/010). tel_site_minutes goes.

-- The int8 at index i (0..119) of a vector.
CREATE FUNCTION tel_int8_at(v bytea, i int) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT ('x' || encode(substring(v FROM i * 8 + 1 FOR 8), 'hex'))::bit(64)::bigint
$$;

-- a + b, minute by minute (NULL counts as zeros).
CREATE FUNCTION tel_minutes_add(a bytea, b bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a ELSE
        (SELECT string_agg(int8send(tel_int8_at(a, i) + tel_int8_at(b, i)), ''::bytea ORDER BY i)
         FROM generate_series(0, 119) i) END
$$;

-- The vector whose minute idx[k] holds b[k] bytes and p[k] packets (each
-- index at most once), the other minutes zero.
CREATE FUNCTION tel_minutes_vector(idx int[], b bigint[], p bigint[]) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(int8send(coalesce(b[x.k], 0)) || int8send(coalesce(p[x.k], 0)), ''::bytea ORDER BY g)
    FROM generate_series(0, 59) g CROSS JOIN LATERAL (SELECT array_position(idx, g) AS k) x
$$;

CREATE TABLE tel_site_hours (
    site_rid bigint NOT NULL,
    hour bigint NOT NULL,                   -- unix time of the hour's start
    action bigint NOT NULL,
    policy text NOT NULL,
    mins bytea NOT NULL,                    -- 60 x (bytes, packets)
    flows bigint NOT NULL,                  -- the hour's flows
    PRIMARY KEY (site_rid, hour, action, policy)
) PARTITION BY RANGE (hour);

CREATE OR REPLACE FUNCTION tel_partitioned() RETURNS TABLE (tbl text, col text) LANGUAGE sql IMMUTABLE AS $$
    VALUES ('tel_flows', 'ts'), ('tel_flow_minutes', 'minute'), ('tel_site_hours', 'hour'),
           ('tel_flow_hours', 'hour'), ('tel_flow_days', 'day'), ('tel_bandwidth', 'minute')
$$;

SELECT tel_partitions_cover(lo, hi) FROM (SELECT min(minute) AS lo, max(minute) AS hi FROM tel_site_minutes) m
    WHERE lo IS NOT NULL;
INSERT INTO tel_site_hours
    SELECT site_rid, minute - minute % 3600, action, policy,
           tel_minutes_vector(array_agg((minute % 3600 / 60)::int), array_agg(bytes), array_agg(packets)),
           sum(flows)
    FROM tel_site_minutes GROUP BY site_rid, minute - minute % 3600, action, policy;
DROP TABLE tel_site_minutes;
