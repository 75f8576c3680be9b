-- 009_webhooks.sql (PostgreSQL) — webhooks: endpoints, the outbox of events
-- written by triggers in the transaction of the write they tell of, the
-- deliveries of each event to each endpoint, and every attempt (see the
-- SQLite migration for the members; type bits in src/webhook/events.h).
CREATE TABLE webhook_endpoints (
    id text PRIMARY KEY,
    customer_id text NOT NULL REFERENCES customers(id),
    url text NOT NULL,
    secret text NOT NULL,
    events bigint NOT NULL,
    description text NOT NULL DEFAULT '',
    enabled bigint NOT NULL DEFAULT 1,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);
CREATE INDEX webhook_endpoints_by_customer ON webhook_endpoints (customer_id, created_at);

CREATE TABLE webhook_events (
    seq bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    type text NOT NULL,
    type_bit bigint NOT NULL,
    customer_id text NOT NULL,
    resource text NOT NULL,
    payload text NOT NULL,
    created_at bigint NOT NULL
);
CREATE INDEX webhook_events_by_time ON webhook_events (created_at);

CREATE TABLE webhook_deliveries (
    seq bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    endpoint_id text NOT NULL,
    event_seq bigint NOT NULL,
    resource text NOT NULL,
    state text NOT NULL,
    attempts bigint NOT NULL DEFAULT 0,
    next_at bigint NOT NULL,
    lease_until bigint NOT NULL DEFAULT 0,
    last_status bigint NOT NULL DEFAULT 0,
    last_error text NOT NULL DEFAULT '',
    replay_of text NOT NULL DEFAULT '',
    created_at bigint NOT NULL,
    done_at bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_resource ON webhook_deliveries (endpoint_id, resource, seq);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, seq);

CREATE TABLE webhook_attempts (
    delivery_seq bigint NOT NULL,
    n bigint NOT NULL,
    at bigint NOT NULL,
    duration_ms bigint NOT NULL,
    status bigint NOT NULL,
    error text NOT NULL,
    response text NOT NULL,
    PRIMARY KEY (delivery_seq, n)
);

-- 16 random hex characters (gen_random_uuid draws from the CSPRNG)
CREATE FUNCTION webhook_new_id() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT substr(encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 1, 16)
$$;

-- An outbox row for a customer's event, when some endpoint takes its type.
CREATE FUNCTION webhook_emit(ev_type text, ev_bit bigint, ev_customer text, ev_resource text, ev_payload json)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.customer_id = ev_customer AND (w.events & ev_bit) <> 0) THEN
        INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at)
        VALUES (webhook_new_id(), ev_type, ev_bit, ev_customer, ev_resource, ev_payload::text,
                extract(epoch FROM clock_timestamp())::bigint);
    END IF;
END $$;

CREATE FUNCTION webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.type_bit <> 0 THEN
        INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at)
        SELECT webhook_new_id(), w.id, NEW.seq, NEW.resource, 'pending', NEW.created_at * 1000, NEW.created_at
        FROM webhook_endpoints w
        WHERE w.customer_id = NEW.customer_id AND w.enabled = 1 AND (w.events & NEW.type_bit) <> 0
        ORDER BY w.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_fanout AFTER INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION webhook_fanout();

CREATE FUNCTION webhook_ddos_payload(e tel_ddos_events) RETURNS json LANGUAGE sql STABLE AS $$
    SELECT json_build_object('alert_id', e.alert_id, 'family', e.family,
                             'site_id', (SELECT id FROM resources WHERE rid = e.site_rid),
                             'attack_type', e.attack_type, 'site_ip', e.site_ip,
                             'start_time', e.start_time, 'end_time', e.end_time,
                             'max_bps', e.max_bps, 'max_pps', e.max_pps,
                             'severity', CASE e.severity WHEN 0 THEN 'low' WHEN 1 THEN 'medium'
                                         WHEN 2 THEN 'high' ELSE 'blackhole' END,
                             'stopped_by', e.stopped_by)
$$;

-- started (and stopped when it arrives already over); stopped; updated
CREATE FUNCTION webhook_ddos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM webhook_emit('ddos.started', 1, NEW.customer_id, 'ddos:' || NEW.alert_id, webhook_ddos_payload(NEW));
        IF NEW.end_time IS NOT NULL THEN
            PERFORM webhook_emit('ddos.stopped', 4, NEW.customer_id, 'ddos:' || NEW.alert_id,
                                 webhook_ddos_payload(NEW));
        END IF;
    ELSIF OLD.end_time IS NULL AND NEW.end_time IS NOT NULL THEN
        PERFORM webhook_emit('ddos.stopped', 4, NEW.customer_id, 'ddos:' || NEW.alert_id, webhook_ddos_payload(NEW));
    ELSIF NEW.end_time IS NULL AND (NEW.max_bps <> OLD.max_bps OR NEW.max_pps <> OLD.max_pps
                                    OR NEW.severity <> OLD.severity) THEN
        PERFORM webhook_emit('ddos.updated', 2, NEW.customer_id, 'ddos:' || NEW.alert_id, webhook_ddos_payload(NEW));
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_ddos AFTER INSERT OR UPDATE ON tel_ddos_events
    FOR EACH ROW EXECUTE FUNCTION webhook_ddos();

CREATE FUNCTION webhook_waf_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webhook_emit('waf.event', 8, NEW.customer_id, 'waf:' || NEW.event_id,
                         json_build_object('event_id', NEW.event_id,
                                           'site_id', (SELECT id FROM resources WHERE rid = NEW.site_rid),
                                           'domain_name', NEW.domain_name, 'domain_port_id', NEW.domain_port_id,
                                           'start_time', NEW.start_time));
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_waf_event AFTER INSERT ON tel_waf_events
    FOR EACH ROW EXECUTE FUNCTION webhook_waf_event();

CREATE FUNCTION webhook_deploy_failed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    s resources%ROWTYPE;
BEGIN
    IF NEW.state = 'failed' AND (TG_OP = 'INSERT' OR OLD.state <> 'failed' OR OLD.digest <> NEW.digest) THEN
        SELECT * INTO s FROM resources WHERE rid = NEW.site_rid;
        IF FOUND THEN
            PERFORM webhook_emit('dataplane.deploy_failed', 16, s.customer_id,
                                 'dataplane:' || NEW.plane || ':' || s.id,
                                 json_build_object('plane', NEW.plane, 'site_id', s.id, 'site_kind', s.kind,
                                                   'state', NEW.state, 'reason', NEW.reason,
                                                   'updated_at', NEW.updated_at));
        END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_deploy_failed AFTER INSERT OR UPDATE ON dataplane_state
    FOR EACH ROW EXECUTE FUNCTION webhook_deploy_failed();

-- The audit log (008) also keeps what a write changed in the resources it
-- loaded: {"<kind> <id>": {"<member>": {"before": ..., "after": ...}}}, secrets
-- redacted (src/core/audit.c), and rows of refused writes (status >= 400).
ALTER TABLE audit_log ADD COLUMN diff text NOT NULL DEFAULT '{}';
