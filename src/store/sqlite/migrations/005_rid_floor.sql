-- 005_rid_floor.sql — resource keys (resources.rid) are never reused.
-- Telemetry rows name their site by rid; SQLite gives a new row the largest
-- rid plus one, so a site created right after the newest one was deleted
-- would get its rid and inherit its telemetry. The largest rid ever deleted
-- is kept here, and a new resource's rid is above it (sqlite/resources.c).
CREATE TABLE resource_rid_floor (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    rid INTEGER NOT NULL
);
INSERT INTO resource_rid_floor VALUES (1, 0);
CREATE TRIGGER resources_rid_floor AFTER DELETE ON resources
BEGIN
    UPDATE resource_rid_floor SET rid = max(rid, OLD.rid) WHERE one = 1;
END;
