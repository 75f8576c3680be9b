-- 013_dst_cells.sql (PostgreSQL) — as the SQLite schema: the flow roll-ups
-- by destination address are kept one row per site and minute, hour and
-- day, whose `cells` holds the period's destinations (with action and
-- policy per minute) and their sums, sorted by destination, action and
-- policy (bytewise): per cell the 17-byte address key, the action (1 byte),
-- the policy's length in bytes (1) and its bytes, then bytes, packets and
-- flows as big-endian int8 (store/tel_cells.h). Partitioned by month like
-- the other roll-ups (pg/010). tel_flow_minutes goes, and the destination
-- rows (dim 4) of tel_flow_hours and tel_flow_days.

-- One cell.
CREATE FUNCTION tel_cell(dst bytea, action int, policy text, b bigint, p bigint, f bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT dst || decode(lpad(to_hex(action), 2, '0') || lpad(to_hex(octet_length(policy)), 2, '0'), 'hex')
        || convert_to(policy, 'UTF8') || int8send(b) || int8send(p) || int8send(f)
$$;

-- The cells of a value, in their order.
CREATE FUNCTION tel_cells_rows(v bytea)
RETURNS TABLE (dst bytea, action int, policy text, bytes bigint, packets bigint, flows bigint)
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
    i int := 0;
    n int := length(v);
    pl int;
BEGIN
    WHILE i < n LOOP
        IF n - i < 19 THEN
            RAISE EXCEPTION 'tel_cells_rows: not destination cells';
        END IF;
        pl := get_byte(v, i + 18);
        IF pl > 32 OR n - i < 43 + pl THEN
            RAISE EXCEPTION 'tel_cells_rows: not destination cells';
        END IF;
        dst := substring(v FROM i + 1 FOR 17);
        action := get_byte(v, i + 17);
        policy := convert_from(substring(v FROM i + 20 FOR pl), 'UTF8');
        i := i + 19 + pl;
        bytes := ('x' || encode(substring(v FROM i + 1 FOR 8), 'hex'))::bit(64)::bigint;
        packets := ('x' || encode(substring(v FROM i + 9 FOR 8), 'hex'))::bit(64)::bigint;
        flows := ('x' || encode(substring(v FROM i + 17 FOR 8), 'hex'))::bit(64)::bigint;
        i := i + 24;
        RETURN NEXT;
    END LOOP;
END
$$;

-- The bytes (what 0), packets (1) or flows (2) of the cells whose
-- destination lies in [lo, hi] (NULL: no bound); the events' peaks.
CREATE FUNCTION tel_cells_sum(v bytea, lo bytea, hi bytea, what int) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    i int := 0;
    n int := coalesce(length(v), 0);
    pl int;
    d bytea;
    total bigint := 0;
BEGIN
    WHILE i < n LOOP
        pl := get_byte(v, i + 18);
        d := substring(v FROM i + 1 FOR 17);
        EXIT WHEN hi IS NOT NULL AND d > hi; -- in destination order: none further is in range
        IF lo IS NULL OR d >= lo THEN
            total := total + ('x' || encode(substring(v FROM i + 20 + pl + 8 * what FOR 8), 'hex'))::bit(64)::bigint;
        END IF;
        i := i + 43 + pl;
    END LOOP;
    RETURN total;
END
$$;

-- a + b: the cells of equal keys summed (NULL: none).
CREATE FUNCTION tel_cells_add(a bytea, b bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a ELSE
        (SELECT coalesce(string_agg(tel_cell(r.dst, r.action, r.policy, r.b, r.p, r.f), ''::bytea
                                    ORDER BY r.dst, r.action, r.policy COLLATE "C"), ''::bytea)
         FROM (SELECT x.dst, x.action, x.policy, sum(x.bytes)::bigint AS b, sum(x.packets)::bigint AS p,
                      sum(x.flows)::bigint AS f
               FROM (SELECT * FROM tel_cells_rows(a) UNION ALL SELECT * FROM tel_cells_rows(b)) x
               GROUP BY 1, 2, 3) r) END
$$;

-- The address key (as address_blocks keeps it) of an address's text.
CREATE FUNCTION tel_addr_key(t text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT CASE family(t::inet) WHEN 4 THEN '\x04'::bytea || substring(inet_send(t::inet) FROM 5)
                                            || '\x000000000000000000000000'::bytea
           ELSE '\x06'::bytea || substring(inet_send(t::inet) FROM 5) END
$$;

CREATE TABLE tel_dst_minutes (
    site_rid bigint NOT NULL,
    minute bigint NOT NULL,
    cells bytea NOT NULL,
    PRIMARY KEY (site_rid, minute)
) PARTITION BY RANGE (minute);

CREATE TABLE tel_dst_hours (
    site_rid bigint NOT NULL,
    hour bigint NOT NULL,
    cells bytea NOT NULL,
    PRIMARY KEY (site_rid, hour)
) PARTITION BY RANGE (hour);

CREATE TABLE tel_dst_days (
    site_rid bigint NOT NULL,
    day bigint NOT NULL,
    cells bytea NOT NULL,
    PRIMARY KEY (site_rid, day)
) PARTITION BY RANGE (day);

CREATE OR REPLACE FUNCTION tel_partitioned() RETURNS TABLE (tbl text, col text) LANGUAGE sql IMMUTABLE AS $$
    VALUES ('tel_flows', 'ts'), ('tel_dst_minutes', 'minute'), ('tel_site_hours', 'hour'),
           ('tel_flow_hours', 'hour'), ('tel_flow_days', 'day'), ('tel_bandwidth', 'minute'),
           ('tel_dst_hours', 'hour'), ('tel_dst_days', 'day')
$$;

SELECT tel_partitions_cover(lo, hi) FROM (SELECT least((SELECT min(minute) FROM tel_flow_minutes),
    (SELECT min(day) FROM tel_flow_days)) AS lo, greatest((SELECT max(minute) FROM tel_flow_minutes),
    (SELECT max(hour) FROM tel_flow_hours)) AS hi) m WHERE lo IS NOT NULL;
INSERT INTO tel_dst_minutes
    SELECT site_rid, minute, string_agg(tel_cell(dst, action::int, policy, bytes, packets, flows), ''::bytea
                                        ORDER BY dst, action, policy COLLATE "C")
    FROM tel_flow_minutes GROUP BY site_rid, minute;
INSERT INTO tel_dst_hours
    SELECT site_rid, hour, string_agg(tel_cell(k, 0, '', b, p, f), ''::bytea ORDER BY k)
    FROM (SELECT site_rid, hour, tel_addr_key(key) AS k, bytes AS b, packets AS p, flows AS f
          FROM tel_flow_hours WHERE dim = 4) h GROUP BY site_rid, hour;
INSERT INTO tel_dst_days
    SELECT site_rid, day, string_agg(tel_cell(k, 0, '', b, p, f), ''::bytea ORDER BY k)
    FROM (SELECT site_rid, day, tel_addr_key(key) AS k, bytes AS b, packets AS p, flows AS f
          FROM tel_flow_days WHERE dim = 4) d GROUP BY site_rid, day;
DROP TABLE tel_flow_minutes;
DELETE FROM tel_flow_hours WHERE dim = 4;
DELETE FROM tel_flow_days WHERE dim = 4;
