-- 006_dataplane.sql — the deploy state of each protected site in each data
-- plane ("fastnetmon", "bird", "nginx"): pending, deployed or failed with the
-- checker's message, and the last configuration fragment that deployed, so
-- that a site whose new settings fail its checker keeps being served as it
-- last was, also across restarts (docs/dataplane.md).
CREATE TABLE dataplane_state (
    plane TEXT NOT NULL,
    site_rid INTEGER NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    digest TEXT NOT NULL DEFAULT '',  -- of the fragment the state is about
    deployed TEXT,                    -- the last fragment that deployed; NULL: none yet
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (plane, site_rid)
) WITHOUT ROWID;
CREATE INDEX dataplane_state_by_site ON dataplane_state (site_rid);
-- A deleted site leaves no state behind.
CREATE TRIGGER dataplane_state_site_gone AFTER DELETE ON resources
BEGIN
    DELETE FROM dataplane_state WHERE site_rid = OLD.rid;
END;
