-- 015_dst_lz4.sql (SQLite) — nothing to do: on PostgreSQL this number sets
-- the destination cells' compression to lz4 (pg/015); SQLite does not
-- compress them. Kept so that both stores have the same history of numbers.
SELECT 1;
