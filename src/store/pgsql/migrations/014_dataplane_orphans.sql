-- 014_dataplane_orphans.sql (PostgreSQL) — remove the deploy states of sites that no longer
-- exist: a deploy pass that rendered a site deleted meanwhile stored its state
-- after 006's trigger had run (the soak found 15,000 such rows after an hour
-- of site churn). dataplane_state_set now stores a state only while its site
-- exists.
DELETE FROM dataplane_state WHERE site_rid NOT IN (SELECT rid FROM resources);
