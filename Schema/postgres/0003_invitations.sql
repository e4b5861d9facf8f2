-- Invitations: a link a maintainer gives to someone who may join as a tester and consent herself
-- (docs/invitations.md). Only the secret's SHA-256 is kept. The fixes she joins on acceptance and the targeting
-- keys bound in advance are JSON arrays of text; nothing here names her until she accepts, and the name hint is the
-- maintainer's own note ("Aiko from the support ticket"), optional.
CREATE TABLE invitations (
    id TEXT COLLATE "C" PRIMARY KEY,
    secret_sha256 BYTEA NOT NULL UNIQUE,
    name_hint TEXT COLLATE "C",
    targeting_keys TEXT COLLATE "C" NOT NULL,
    fix_keys TEXT COLLATE "C" NOT NULL,
    language TEXT COLLATE "C" NOT NULL,
    uses_allowed BIGINT NOT NULL,
    uses_made BIGINT NOT NULL DEFAULT 0,
    created_by TEXT COLLATE "C" NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL,
    revoked_at_ms BIGINT,
    revoked_by TEXT COLLATE "C"
);
CREATE INDEX invitations_by_creation ON invitations (created_at_ms, id);
