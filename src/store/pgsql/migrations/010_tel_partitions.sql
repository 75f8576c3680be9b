-- 010_tel_partitions.sql (PostgreSQL only) — the telemetry tables that grow
-- with traffic are partitioned by time, one partition per calendar month
-- (UTC): flows and their roll-ups, and bandwidth samples. Retention then
-- drops whole months instead of deleting rows one by one, and a dashboard
-- read over a window touches only the months it covers. (SQLite keeps one
-- table each: 010 there is a no-op, so the histories stay alike.)
--
-- A partition is named <table>_<unix time of its month's start> and is
-- made on demand: ingest and `admin migrate` call tel_partitions_cover()
-- for the times they are about to write (the nodes' write lock is held,
-- so two nodes never make the same one).

-- The tables partitioned, each with its time column.
CREATE FUNCTION tel_partitioned() RETURNS TABLE (tbl text, col text) LANGUAGE sql IMMUTABLE AS $$
    VALUES ('tel_flows', 'ts'), ('tel_flow_minutes', 'minute'), ('tel_site_minutes', 'minute'),
           ('tel_flow_hours', 'hour'), ('tel_flow_days', 'day'), ('tel_bandwidth', 'minute')
$$;

-- The start (unix time) of the UTC month holding t.
CREATE FUNCTION tel_month_start(t bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT extract(epoch FROM date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC'))::bigint
$$;

-- Makes the partitions of every partitioned table for the months of [lo, hi].
CREATE FUNCTION tel_partitions_cover(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    m bigint := tel_month_start(lo);
    next_m bigint;
    t record;
BEGIN
    WHILE m <= hi LOOP
        next_m := extract(epoch FROM (to_timestamp(m) AT TIME ZONE 'UTC') + interval '1 month')::bigint;
        FOR t IN SELECT * FROM tel_partitioned() LOOP
            IF to_regclass(format('%I', t.tbl || '_' || m)) IS NULL THEN
                EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
                               t.tbl || '_' || m, t.tbl, m, next_m);
            END IF;
        END LOOP;
        m := next_m;
    END LOOP;
END
$$;

-- Retention of one partitioned table: months wholly before the cut-off are
-- dropped; in the others at most max_rows rows before the cut-off or of a
-- site that no longer exists are deleted. The rows it removed (a dropped
-- month counts its rows).
CREATE FUNCTION tel_partitions_purge(parent text, col text, cutoff bigint, max_rows bigint)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    p record;
    n bigint;
    removed bigint := 0;
BEGIN
    FOR p IN SELECT c.relname, split_part(c.relname, '_', array_length(string_to_array(c.relname, '_'), 1))::bigint AS m
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = parent::regclass ORDER BY 2 LOOP
        EXIT WHEN removed >= max_rows;
        IF extract(epoch FROM (to_timestamp(p.m) AT TIME ZONE 'UTC') + interval '1 month')::bigint <= cutoff THEN
            EXECUTE format('SELECT count(*) FROM %I', p.relname) INTO n;
            EXECUTE format('DROP TABLE %I', p.relname);
        ELSE
            EXECUTE format('DELETE FROM %1$I WHERE ctid = ANY(ARRAY(SELECT x.ctid FROM %1$I x WHERE x.%2$I < $1 '
                           'OR NOT EXISTS (SELECT 1 FROM resources r WHERE r.rid = x.site_rid) LIMIT $2))',
                           p.relname, col) USING cutoff, max_rows - removed;
            GET DIAGNOSTICS n = ROW_COUNT;
        END IF;
        removed := removed + n;
    END LOOP;
    RETURN removed;
END
$$;

-- The tables as they are, moved into their partitioned successors.
DO $$
DECLARE
    t record;
    lo bigint;
    hi bigint;
BEGIN
    FOR t IN SELECT * FROM tel_partitioned() LOOP
        EXECUTE format('ALTER TABLE %I RENAME TO %I', t.tbl, t.tbl || '_unpartitioned');
        EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', t.tbl || '_unpartitioned', t.tbl || '_pkey',
                       t.tbl || '_unpartitioned_pkey');
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL) PARTITION BY RANGE (%I)', t.tbl,
                       t.tbl || '_unpartitioned', t.col);
    END LOOP;
    FOR t IN SELECT * FROM tel_partitioned() LOOP
        EXECUTE format('SELECT min(%I), max(%I) FROM %I', t.col, t.col, t.tbl || '_unpartitioned') INTO lo, hi;
        IF lo IS NOT NULL THEN
            PERFORM tel_partitions_cover(lo, hi);
            EXECUTE format('INSERT INTO %I SELECT * FROM %I', t.tbl, t.tbl || '_unpartitioned');
        END IF;
        EXECUTE format('DROP TABLE %I', t.tbl || '_unpartitioned');
    END LOOP;
END
$$;
