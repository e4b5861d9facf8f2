-- Staff signed in through the organisation's identity provider (docs/sign-in.md). Their console session keeps its own
-- credential id in token_id (oidc_…, never a token's id), and the principal and role the provider's ID token gave.
ALTER TABLE console_sessions ADD COLUMN oidc_principal TEXT;
ALTER TABLE console_sessions ADD COLUMN oidc_role TEXT;
CREATE INDEX console_sessions_by_oidc_principal ON console_sessions (oidc_principal);

-- A sign-in on its way to the provider: the SHA-256 of the browser's pre-session cookie, from which state, nonce and
-- code verifier are derived, so nothing stored here is a secret. The callback deletes it: one use only.
CREATE TABLE oidc_sign_ins (
    id_sha256 BLOB PRIMARY KEY,
    next TEXT NOT NULL,
    expires_at_ms INTEGER NOT NULL
);
