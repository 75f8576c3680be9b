-- 015_dst_lz4.sql (PostgreSQL) — the destination cells (pg/013) compressed
-- with lz4 rather than pglz, where the server was built with it. An ingest
-- batch rewrites the rows of the hours and days it touched, tens of kB each
-- (a day's row holds every destination of its site), and pglz took most of
-- those writes' time: at a collector's density (bench/telemetry's SCALE=0.1
-- DAYS=1) the three destination upserts took ~3.8 s of the ingest's 13 s of
-- PostgreSQL CPU with pglz, ~0.5 s with lz4; the cells take about twice the
-- space (lz4 compresses them less). The parents and their partitions are
-- set (ALTER on a parent does not reach the partitions it has); partitions
-- made later (tel_partitions_cover) take the parent's method; rows written
-- before keep pglz until they are rewritten.
DO $$
DECLARE
    t regclass;
BEGIN
    IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        FOR t IN SELECT p FROM unnest(ARRAY['tel_dst_minutes', 'tel_dst_hours', 'tel_dst_days']::regclass[]) p
                 UNION ALL
                 SELECT inhrelid::regclass FROM pg_inherits
                 WHERE inhparent IN ('tel_dst_minutes'::regclass, 'tel_dst_hours'::regclass, 'tel_dst_days'::regclass)
        LOOP
            EXECUTE format('ALTER TABLE %s ALTER COLUMN cells SET COMPRESSION lz4', t);
        END LOOP;
    END IF;
END $$;
