-- 009_webhooks.sql — webhooks (docs/decisions.md "Webhooks"): endpoints a
-- customer registers, an outbox of events written by triggers in the very
-- transaction that creates, changes or stops what they tell of (so no event
-- is lost and none is sent for a rolled-back write), the deliveries of each
-- event to each subscribed endpoint, and every attempt with its response.
--
-- Event type bits (src/webhook/events.h): 1 ddos.started, 2 ddos.updated,
-- 4 ddos.stopped, 8 waf.event, 16 dataplane.deploy_failed; 0 webhook.ping
-- (sent to one endpoint only, never fanned out).
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,                    -- 16 hex, public
    customer_id TEXT NOT NULL REFERENCES customers(id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,                   -- the HMAC key (needed to sign: not a digest); never answered
    events INTEGER NOT NULL,                -- bits of the types it receives
    description TEXT NOT NULL DEFAULT '',
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_by_customer ON webhook_endpoints (customer_id, created_at);

-- The outbox: one row per event, written by the triggers below.
CREATE TABLE webhook_events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,                -- 16 hex, public (the body's "id")
    type TEXT NOT NULL,
    type_bit INTEGER NOT NULL,
    customer_id TEXT NOT NULL,
    resource TEXT NOT NULL,                 -- what it is about: deliveries of one resource keep their order
    payload TEXT NOT NULL,                  -- JSON object: the body's "data"
    created_at INTEGER NOT NULL
);
CREATE INDEX webhook_events_by_time ON webhook_events (created_at);

-- One event to one endpoint; replays are new rows (replay_of names the first).
CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY,                -- the order deliveries of one resource go out in
    id TEXT NOT NULL UNIQUE,                -- 16 hex, public
    endpoint_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    resource TEXT NOT NULL,
    state TEXT NOT NULL,                    -- pending, delivered, failed
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,               -- unix ms of the next attempt (pending)
    lease_until INTEGER NOT NULL DEFAULT 0, -- unix ms: a worker is sending it until then
    last_status INTEGER NOT NULL DEFAULT 0, -- HTTP status of the last attempt (0: none)
    last_error TEXT NOT NULL DEFAULT '',
    replay_of TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    done_at INTEGER                         -- unix s: delivered or given up
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_resource ON webhook_deliveries (endpoint_id, resource, seq);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, seq);

CREATE TABLE webhook_attempts (
    delivery_seq INTEGER NOT NULL,
    n INTEGER NOT NULL,                     -- 1, 2, ...
    at INTEGER NOT NULL,                    -- unix ms
    duration_ms INTEGER NOT NULL,
    status INTEGER NOT NULL,                -- HTTP status, 0 when none came
    error TEXT NOT NULL,                    -- transport failure, '' if none
    response TEXT NOT NULL,                 -- the first 2 KiB of the response body
    PRIMARY KEY (delivery_seq, n)
) WITHOUT ROWID;

-- Fan-out: an event goes to every enabled endpoint of its customer that
-- takes its type, in the same transaction.
CREATE TRIGGER webhook_fanout AFTER INSERT ON webhook_events WHEN NEW.type_bit <> 0
BEGIN
    INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at)
    SELECT lower(hex(randomblob(8))), w.id, NEW.seq, NEW.resource, 'pending', NEW.created_at * 1000,
           NEW.created_at
    FROM webhook_endpoints w
    WHERE w.customer_id = NEW.customer_id AND w.enabled = 1 AND (w.events & NEW.type_bit) <> 0
    ORDER BY w.id;
END;

-- The event sources. Each writes an outbox row only when some endpoint of
-- the customer takes the type (nothing to write for the others). An event
-- that arrives already over is told as started, then stopped.
CREATE TRIGGER webhook_ddos_new AFTER INSERT ON tel_ddos_events
WHEN EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = NEW.customer_id AND (w.events & 5) <> 0)
BEGIN
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    SELECT lower(hex(randomblob(8))), 'ddos.started', 1, NEW.customer_id, 'ddos:' || NEW.alert_id,
           json_object('alert_id', NEW.alert_id, 'family', NEW.family,
                       'site_id', (SELECT id FROM resources WHERE rid = NEW.site_rid),
                       'attack_type', NEW.attack_type, 'site_ip', NEW.site_ip,
                       'start_time', NEW.start_time, 'end_time', NEW.end_time,
                       'max_bps', NEW.max_bps, 'max_pps', NEW.max_pps,
                       'severity', CASE NEW.severity WHEN 0 THEN 'low' WHEN 1 THEN 'medium'
                                   WHEN 2 THEN 'high' ELSE 'blackhole' END,
                       'stopped_by', NEW.stopped_by),
           unixepoch()
    WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = NEW.customer_id AND (w.events & 1) <> 0);
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    SELECT lower(hex(randomblob(8))), 'ddos.stopped', 4, NEW.customer_id, 'ddos:' || NEW.alert_id,
           json_object('alert_id', NEW.alert_id, 'family', NEW.family,
                       'site_id', (SELECT id FROM resources WHERE rid = NEW.site_rid),
                       'attack_type', NEW.attack_type, 'site_ip', NEW.site_ip,
                       'start_time', NEW.start_time, 'end_time', NEW.end_time,
                       'max_bps', NEW.max_bps, 'max_pps', NEW.max_pps,
                       'severity', CASE NEW.severity WHEN 0 THEN 'low' WHEN 1 THEN 'medium'
                                   WHEN 2 THEN 'high' ELSE 'blackhole' END,
                       'stopped_by', NEW.stopped_by),
           unixepoch()
    WHERE NEW.end_time IS NOT NULL
      AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = NEW.customer_id AND (w.events & 4) <> 0);
END;

-- A known event changes: stopped (its end time set), or updated (a larger
-- peak while it goes on). An update that changes nothing tells nothing.
CREATE TRIGGER webhook_ddos_changed AFTER UPDATE ON tel_ddos_events
WHEN ((OLD.end_time IS NULL AND NEW.end_time IS NOT NULL) OR
      (NEW.end_time IS NULL AND (NEW.max_bps <> OLD.max_bps OR NEW.max_pps <> OLD.max_pps
                                 OR NEW.severity <> OLD.severity)))
     AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = NEW.customer_id
                 AND (w.events & (CASE WHEN NEW.end_time IS NULL THEN 2 ELSE 4 END)) <> 0)
BEGIN
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    VALUES (lower(hex(randomblob(8))), CASE WHEN NEW.end_time IS NULL THEN 'ddos.updated' ELSE 'ddos.stopped' END,
            CASE WHEN NEW.end_time IS NULL THEN 2 ELSE 4 END, NEW.customer_id, 'ddos:' || NEW.alert_id,
            json_object('alert_id', NEW.alert_id, 'family', NEW.family,
                        'site_id', (SELECT id FROM resources WHERE rid = NEW.site_rid),
                        'attack_type', NEW.attack_type, 'site_ip', NEW.site_ip,
                        'start_time', NEW.start_time, 'end_time', NEW.end_time,
                        'max_bps', NEW.max_bps, 'max_pps', NEW.max_pps,
                        'severity', CASE NEW.severity WHEN 0 THEN 'low' WHEN 1 THEN 'medium'
                                    WHEN 2 THEN 'high' ELSE 'blackhole' END,
                        'stopped_by', NEW.stopped_by),
            unixepoch());
END;

-- A WAF event begins (its first log entries are grouped into a new event).
CREATE TRIGGER webhook_waf_event AFTER INSERT ON tel_waf_events
WHEN EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = NEW.customer_id AND (w.events & 8) <> 0)
BEGIN
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    VALUES (lower(hex(randomblob(8))), 'waf.event', 8, NEW.customer_id, 'waf:' || NEW.event_id,
            json_object('event_id', NEW.event_id,
                        'site_id', (SELECT id FROM resources WHERE rid = NEW.site_rid),
                        'domain_name', NEW.domain_name, 'domain_port_id', NEW.domain_port_id,
                        'start_time', NEW.start_time),
            unixepoch());
END;

-- A data plane refuses a site's configuration (a new failure: the state
-- becomes failed, or another fragment fails).
CREATE TRIGGER webhook_deploy_failed_new AFTER INSERT ON dataplane_state
WHEN NEW.state = 'failed'
BEGIN
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    SELECT lower(hex(randomblob(8))), 'dataplane.deploy_failed', 16, s.customer_id,
           'dataplane:' || NEW.plane || ':' || s.id,
           json_object('plane', NEW.plane, 'site_id', s.id, 'site_kind', s.kind, 'state', NEW.state,
                       'reason', NEW.reason, 'updated_at', NEW.updated_at),
           unixepoch()
    FROM resources s
    WHERE s.rid = NEW.site_rid AND EXISTS (SELECT 1 FROM webhook_endpoints w
                                          WHERE w.customer_id = s.customer_id AND (w.events & 16) <> 0);
END;
CREATE TRIGGER webhook_deploy_failed AFTER UPDATE ON dataplane_state
WHEN NEW.state = 'failed' AND (OLD.state <> 'failed' OR OLD.digest <> NEW.digest)
BEGIN
    INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
    SELECT lower(hex(randomblob(8))), 'dataplane.deploy_failed', 16, s.customer_id,
           'dataplane:' || NEW.plane || ':' || s.id,
           json_object('plane', NEW.plane, 'site_id', s.id, 'site_kind', s.kind, 'state', NEW.state,
                       'reason', NEW.reason, 'updated_at', NEW.updated_at),
           unixepoch()
    FROM resources s
    WHERE s.rid = NEW.site_rid AND EXISTS (SELECT 1 FROM webhook_endpoints w
                                          WHERE w.customer_id = s.customer_id AND (w.events & 16) <> 0);
END;

-- The audit log (008) also keeps what a write changed in the resources it
-- loaded: {"<kind> <id>": {"<member>": {"before": ..., "after": ...}}}, secrets
-- redacted (src/core/audit.c), and rows of refused writes (status >= 400).
ALTER TABLE audit_log ADD COLUMN diff TEXT NOT NULL DEFAULT '{}';
