-- Fixes, their direct targets, API tokens and the audit log.
-- Times are integer milliseconds since 1970 (UTC); lists of names are comma-separated.

CREATE TABLE fixes (
    key TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    ui_area TEXT NOT NULL,
    platforms TEXT NOT NULL,
    wcag TEXT NOT NULL,
    expected_announcement TEXT,
    author TEXT NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    state TEXT NOT NULL,
    paused_from TEXT,
    rollout_percentage INTEGER,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX fixes_by_state ON fixes (state, key);

CREATE TABLE fix_targets (
    fix_key TEXT NOT NULL REFERENCES fixes (key) ON DELETE CASCADE,
    targeting_key TEXT NOT NULL,
    added_by TEXT NOT NULL,
    added_at_ms INTEGER NOT NULL,
    PRIMARY KEY (fix_key, targeting_key)
) WITHOUT ROWID;

CREATE TABLE tokens (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    tester_id TEXT,
    secret_sha256 BLOB NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    revoked_at_ms INTEGER
);

CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    principal TEXT NOT NULL,
    action TEXT NOT NULL,
    fix_key TEXT,
    subject TEXT,
    note TEXT,
    before_json TEXT,
    after_json TEXT
);

CREATE INDEX audit_events_by_fix ON audit_events (fix_key, id);
