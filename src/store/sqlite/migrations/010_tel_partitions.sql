-- 010_tel_partitions.sql (SQLite) — nothing to do: on PostgreSQL this
-- number partitions the telemetry tables by month (pg/010); SQLite keeps one
-- table each. Kept so that both stores have the same history of numbers.
SELECT 1;
