-- 006_dataplane.sql (PostgreSQL) — the deploy state of each protected site in
-- each data plane (docs/dataplane.md).
CREATE TABLE dataplane_state (
    plane text NOT NULL,
    site_rid bigint NOT NULL,
    state text NOT NULL,
    reason text NOT NULL DEFAULT '',
    digest text NOT NULL DEFAULT '',
    deployed text,
    updated_at bigint NOT NULL,
    PRIMARY KEY (plane, site_rid)
);
CREATE INDEX dataplane_state_by_site ON dataplane_state (site_rid);
-- A deleted site leaves no state behind.
CREATE FUNCTION dataplane_state_site_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM dataplane_state WHERE site_rid = OLD.rid;
    RETURN OLD;
END $$;
CREATE TRIGGER dataplane_state_site_gone AFTER DELETE ON resources
    FOR EACH ROW EXECUTE FUNCTION dataplane_state_site_gone();
