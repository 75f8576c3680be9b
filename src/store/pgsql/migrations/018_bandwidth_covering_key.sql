-- 018_bandwidth_covering_key.sql (PostgreSQL) — a site's bandwidth chart
-- reads every sample of its window (a month: 43,200 a node). The rows lie
-- in arrival order, a few of a site on each page among the other sites':
-- the heap reads cost most of the chart (60 ms for a month). The primary
-- key now carries the samples' values, so that the chart is an index-only
-- scan in minute order (8 ms). Rebuilds the key's index once.
ALTER TABLE tel_bandwidth DROP CONSTRAINT tel_bandwidth_pkey,
    ADD PRIMARY KEY (site_rid, minute, node) INCLUDE (raw_in, raw_out, clean_in, clean_out);
