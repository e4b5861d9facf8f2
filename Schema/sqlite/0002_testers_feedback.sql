-- Testers with their consent, enrollments, and structured feedback.
-- A tester's identity (name, contact) and assistive-technology profile are health data under GDPR: they live in
-- their own tables, keyed by the pseudonym, so withdrawal can erase them while the pseudonymous rest stays.

CREATE TABLE testers (
    id TEXT PRIMARY KEY NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'withdrawn')),
    consent_version TEXT NOT NULL,
    consent_given_at_ms INTEGER NOT NULL,
    consent_recorded_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    withdrawn_at_ms INTEGER
);

CREATE TABLE tester_identities (
    tester_id TEXT PRIMARY KEY NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    contact TEXT
);

CREATE TABLE tester_assistive_tech (
    tester_id TEXT NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    technology TEXT NOT NULL,
    platform TEXT NOT NULL,
    version TEXT,
    PRIMARY KEY (tester_id, position)
) WITHOUT ROWID;

CREATE TABLE tester_keys (
    tester_id TEXT NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    targeting_key TEXT NOT NULL,
    PRIMARY KEY (tester_id, targeting_key)
) WITHOUT ROWID;

CREATE TABLE enrollments (
    fix_key TEXT NOT NULL REFERENCES fixes (key) ON DELETE CASCADE,
    tester_id TEXT NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    enrolled_by TEXT NOT NULL,
    enrolled_at_ms INTEGER NOT NULL,
    PRIMARY KEY (fix_key, tester_id)
) WITHOUT ROWID;

CREATE INDEX enrollments_by_tester ON enrollments (tester_id, fix_key);

CREATE TABLE feedback (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    fix_key TEXT NOT NULL REFERENCES fixes (key),
    revision INTEGER NOT NULL,
    -- NULL once the tester withdrew: the verdict stays, unlinked.
    tester_id TEXT,
    -- 1 for the tester's latest feedback on this fix revision: "per tester and revision, the latest counts".
    is_latest INTEGER NOT NULL,
    platform TEXT NOT NULL,
    os_version TEXT NOT NULL,
    device TEXT,
    app_build TEXT NOT NULL,
    assistive_tech TEXT NOT NULL,
    at_version TEXT,
    verdict TEXT NOT NULL,
    task_outcome TEXT NOT NULL,
    severity TEXT NOT NULL,
    name_announced TEXT,
    role_announced TEXT,
    state_announced TEXT,
    focus_order TEXT,
    heard TEXT,
    regression INTEGER NOT NULL,
    wcag TEXT NOT NULL,
    comment TEXT,
    channel TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at_ms INTEGER NOT NULL
);

CREATE INDEX feedback_by_fix ON feedback (fix_key, revision, seq);
CREATE INDEX feedback_latest ON feedback (fix_key, revision, tester_id) WHERE is_latest = 1;
CREATE INDEX feedback_by_tester ON feedback (tester_id);

-- A retried submission with the same Idempotency-Key gets the first result; only ids are kept here, so an
-- erasure of the records' comments also reaches what a retry would show.
CREATE TABLE idempotency_records (
    principal TEXT NOT NULL,
    key TEXT NOT NULL,
    request_sha256 BLOB NOT NULL,
    feedback_ids TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (principal, key)
) WITHOUT ROWID;

-- Tester tokens now name a real tester.
CREATE INDEX tokens_by_tester ON tokens (tester_id) WHERE tester_id IS NOT NULL;
