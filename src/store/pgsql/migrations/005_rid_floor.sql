-- 005_rid_floor.sql (PostgreSQL) — resource keys are never reused. SQLite
-- needed a floor table for it; here resources.rid comes from a sequence,
-- which never hands out a value twice. Recorded on the column.
COMMENT ON COLUMN resources.rid IS 'from a sequence: never reused (telemetry names sites by rid)';
