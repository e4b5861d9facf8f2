-- A tester joining through an invitation herself (docs/invitations.md, "Joining").

-- On the web a screen reader is tested together with a browser, so a web profile may name it (`chrome`, `firefox`…).
ALTER TABLE tester_assistive_tech ADD COLUMN browser TEXT COLLATE "C";

-- Each consent text a tester agreed to, exactly as she read it (with the operator's name and contact filled in),
-- kept from the first agreement on: an operator may replace the files, but what someone agreed to stays readable,
-- and one version in one language always names one text.
CREATE TABLE consent_texts (
    version TEXT COLLATE "C" NOT NULL,
    language TEXT COLLATE "C" NOT NULL,
    body TEXT COLLATE "C" NOT NULL,
    body_sha256 BYTEA NOT NULL,
    first_agreed_at_ms BIGINT NOT NULL,
    PRIMARY KEY (version, language)
);

-- Her answers between agreeing and joining, found by the SHA-256 of a cookie. They are hers before she is a tester:
-- deleted when she joins, cancels or the hour runs out, so leaving half-way keeps nothing about her for long.
CREATE TABLE join_drafts (
    id_sha256 BYTEA PRIMARY KEY,
    invitation_id TEXT COLLATE "C" NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    csrf TEXT COLLATE "C" NOT NULL,
    consent_version TEXT COLLATE "C" NOT NULL,
    consent_language TEXT COLLATE "C" NOT NULL,
    answers TEXT COLLATE "C" NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
CREATE INDEX join_drafts_by_expiry ON join_drafts (expires_at_ms);
