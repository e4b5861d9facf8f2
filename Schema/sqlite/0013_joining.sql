-- A tester joining through an invitation herself (docs/invitations.md, "Joining").

-- On the web a screen reader is tested together with a browser, so a web profile may name it (`chrome`, `firefox`…).
ALTER TABLE tester_assistive_tech ADD COLUMN browser TEXT;

-- Each consent text a tester agreed to, exactly as she read it (with the operator's name and contact filled in),
-- kept from the first agreement on: an operator may replace the files, but what someone agreed to stays readable,
-- and one version in one language always names one text.
CREATE TABLE consent_texts (
    version TEXT NOT NULL,
    language TEXT NOT NULL,
    body TEXT NOT NULL,
    body_sha256 BLOB NOT NULL,
    first_agreed_at_ms INTEGER NOT NULL,
    PRIMARY KEY (version, language)
) WITHOUT ROWID;

-- Her answers between agreeing and joining, found by the SHA-256 of a cookie. They are hers before she is a tester:
-- deleted when she joins, cancels or the hour runs out, so leaving half-way keeps nothing about her for long.
CREATE TABLE join_drafts (
    id_sha256 BLOB PRIMARY KEY,
    invitation_id TEXT NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    consent_version TEXT NOT NULL,
    consent_language TEXT NOT NULL,
    answers TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL
);
CREATE INDEX join_drafts_by_expiry ON join_drafts (expires_at_ms);
