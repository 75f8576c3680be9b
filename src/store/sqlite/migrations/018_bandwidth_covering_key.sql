-- 018_bandwidth_covering_key.sql (SQLite) — nothing to do: on PostgreSQL
-- this number makes tel_bandwidth's primary key carry the samples' values
-- (an index-only scan for the bandwidth chart); SQLite's table is kept in
-- its key's order already (WITHOUT ROWID). Kept so that both stores have
-- the same history of numbers.
SELECT 1;
