-- 019_waf_source_counts.sql (SQLite) — a WAF event's top countries are
-- placed where each one's commonest source is. That source was found by
-- reading every entry of the event from that country and its address out
-- of the entry's JSON: 50-70 ms for an event of a busy day. Events now
-- count their entries by source (dim 4: the country's two capitals, then
-- the address as the entry gives it; entries without a country are not
-- counted there), as they count them by country. This fills the count for
-- the entries stored before.
INSERT INTO tel_waf_event_counts (weid, dim, key, count)
SELECT weid, 4, country || json_extract(entry, '$.src_ip') AS source, count(*)
FROM tel_waf_logs WHERE country <> '' AND json_extract(entry, '$.src_ip') IS NOT NULL
GROUP BY weid, source;
