-- Promotion: per-fix criteria, approvals, phased rollout, webhook endpoints and the durable outbox.

-- When the current revision entered testing, for the soak criterion.
ALTER TABLE fixes ADD COLUMN testing_since_ms INTEGER;
-- Per-fix criteria overrides as JSON (only the keys that differ from the configuration).
ALTER TABLE fixes ADD COLUMN criteria_json TEXT;
-- Phased rollout profile: comma-separated percentages and the interval between steps; NULL when not phased.
ALTER TABLE fixes ADD COLUMN rollout_steps TEXT;
ALTER TABLE fixes ADD COLUMN rollout_interval_s INTEGER;
ALTER TABLE fixes ADD COLUMN rollout_next_step_at_ms INTEGER;
-- The fix.promoted event whose required deliveries decide between released and promotion_failed.
ALTER TABLE fixes ADD COLUMN promotion_event_id TEXT;

UPDATE fixes SET testing_since_ms = updated_at_ms WHERE state IN ('testing', 'promoting', 'promotion_failed');

-- Failing feedback voids earlier approvals; this keeps finding it cheap however much passing feedback there is.
CREATE INDEX feedback_failing ON feedback (fix_key, revision, seq) WHERE verdict = 'failed';

CREATE TABLE approvals (
    id TEXT PRIMARY KEY NOT NULL,
    fix_key TEXT NOT NULL REFERENCES fixes (key) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    principal TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
    comment TEXT,
    evidence_hash TEXT NOT NULL,
    recorded_at_ms INTEGER NOT NULL,
    UNIQUE (fix_key, revision, principal)
);

CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY NOT NULL,
    url TEXT NOT NULL,
    -- Comma-separated event types; empty means every event.
    events TEXT NOT NULL,
    required INTEGER NOT NULL,
    secret TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    disabled_reason TEXT,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    -- A deleted endpoint stays as a row so its deliveries keep their history.
    deleted_at_ms INTEGER
);

-- One event, with the exact body bytes that are signed and sent on every attempt.
CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY NOT NULL,
    type TEXT NOT NULL,
    fix_key TEXT,
    revision INTEGER,
    body BLOB NOT NULL,
    created_at_ms INTEGER NOT NULL
);

CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    event_id TEXT NOT NULL REFERENCES webhook_events (id),
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id),
    -- pending, succeeded, dead, cancelled
    status TEXT NOT NULL,
    required INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at_ms INTEGER,
    last_status_code INTEGER,
    last_error TEXT,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at_ms) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at_ms);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, number)
) WITHOUT ROWID;
