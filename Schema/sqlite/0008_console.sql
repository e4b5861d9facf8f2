-- The web console (docs/console.md). Neither table holds a secret: only the SHA-256 of each session cookie and of
-- each personal link, so a copy of the database opens no session and no link.

-- A tester's personal link: opening it signs her in with the tester role's scope. Valid until it expires or is
-- revoked; her withdrawal deletes it.
CREATE TABLE tester_links (
    id TEXT PRIMARY KEY,
    tester_id TEXT NOT NULL REFERENCES testers(id),
    secret_sha256 BLOB NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    revoked_at_ms INTEGER
);
CREATE INDEX tester_links_by_tester ON tester_links (tester_id);

-- A signed-in browser: a staff member through a token (token_id), or a tester through a link (link_id, tester_id).
-- The session has exactly that token's or that link's reach, and ends with it.
CREATE TABLE console_sessions (
    id_sha256 BLOB PRIMARY KEY,
    token_id TEXT,
    link_id TEXT REFERENCES tester_links(id) ON DELETE CASCADE,
    tester_id TEXT,
    csrf TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    last_seen_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    CHECK ((token_id IS NULL) <> (link_id IS NULL))
);
CREATE INDEX console_sessions_by_token ON console_sessions (token_id);
CREATE INDEX console_sessions_by_tester ON console_sessions (tester_id);

-- A tester's answers between the feedback question pages, kept on the server so that nothing she typed is lost
-- to an error, a back button or a closed tab; deleted when the feedback is sent or the session ends.
CREATE TABLE console_drafts (
    session_sha256 BLOB NOT NULL REFERENCES console_sessions(id_sha256) ON DELETE CASCADE,
    fix_key TEXT NOT NULL,
    answers TEXT NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (session_sha256, fix_key)
);
