-- Invitations: a link a maintainer gives to someone who may join as a tester and consent herself
-- (docs/invitations.md). Only the secret's SHA-256 is kept. The fixes she joins on acceptance and the targeting
-- keys bound in advance are JSON arrays of text; nothing here names her until she accepts, and the name hint is the
-- maintainer's own note ("Aiko from the support ticket"), optional.
CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    secret_sha256 BLOB NOT NULL UNIQUE,
    name_hint TEXT,
    targeting_keys TEXT NOT NULL,
    fix_keys TEXT NOT NULL,
    language TEXT NOT NULL,
    uses_allowed INTEGER NOT NULL,
    uses_made INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    revoked_at_ms INTEGER,
    revoked_by TEXT
);
CREATE INDEX invitations_by_creation ON invitations (created_at_ms, id);
