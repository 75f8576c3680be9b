-- 017_waf_logs_unindexed_time.sql (PostgreSQL) — nothing to do: on SQLite
-- this number drops tel_waf_logs_by_time, which no SQLite statement uses;
-- PostgreSQL's retention picks WAF entries by time (pgsql/tel_purge.c) and
-- keeps it. Kept so that both stores have the same history of numbers.
SELECT 1;
