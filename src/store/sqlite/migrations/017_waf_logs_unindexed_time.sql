-- 017_waf_logs_unindexed_time.sql (SQLite) — WAF entries are read, moved and
-- purged by their event (tel_waf_logs_by_event: weid, ts) or found by their
-- _id; no statement of this store reads them by time alone (its retention
-- goes event by event: sqlite/tel_purge.c), so the index by time only cost
-- every entry a fourth B-tree insert.
DROP INDEX IF EXISTS tel_waf_logs_by_time;
