-- 016_token_app_rule.sql (SQLite) — nothing to do: on PostgreSQL this number
-- replaces the foreign key of tokens.app_id by triggers on apps (its row lock
-- cost every token insert a MultiXact) and the CHECK of tokens.type by a
-- domain (PostgreSQL plans a table's CHECKs again at every INSERT); SQLite's
-- key takes no row lock and its CHECK costs nothing, so both stay. Kept so
-- that both stores have the same history of numbers.
SELECT 1;
