-- 016_token_app_rule.sql (SQLite) — nothing to do: on PostgreSQL this number
-- replaces the foreign key of tokens.app_id by triggers on apps (pg/016: the
-- key's row lock cost every token insert a MultiXact); SQLite's key takes no
-- row lock and stays. Kept so that both stores have the same history of numbers.
SELECT 1;
