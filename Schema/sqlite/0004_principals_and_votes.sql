-- Principals, and one standing vote per principal and revision.

-- The people and systems tokens are issued to. Four-eyes and one-vote rules compare principals, never token names.
-- `name` is NFKC case-folded; `skeleton` is its Unicode TS #39 confusable skeleton, unique so that no two principals
-- look alike. Tester tokens' principal is the tester's pseudonym and is not listed here.
CREATE TABLE principals (
    name TEXT PRIMARY KEY NOT NULL,
    skeleton TEXT NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL
) WITHOUT ROWID;

-- Each token's principal. Older tokens get theirs when the store opens: normalising needs Unicode data SQL lacks.
ALTER TABLE tokens ADD COLUMN principal TEXT;

-- A voided or expired approval may be replaced by a new decision of the same principal on the same revision; the old
-- row stays as history, marked replaced. The table is rebuilt because SQLite cannot drop the old UNIQUE constraint.
CREATE TABLE approvals_next (
    id TEXT PRIMARY KEY NOT NULL,
    fix_key TEXT NOT NULL REFERENCES fixes (key) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    principal TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
    comment TEXT,
    evidence_hash TEXT NOT NULL,
    recorded_at_ms INTEGER NOT NULL,
    replaced_at_ms INTEGER
);
INSERT INTO approvals_next (id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms)
    SELECT id, fix_key, revision, principal, decision, comment, evidence_hash, recorded_at_ms FROM approvals;
DROP TABLE approvals;
ALTER TABLE approvals_next RENAME TO approvals;
CREATE UNIQUE INDEX approvals_standing ON approvals (fix_key, revision, principal) WHERE replaced_at_ms IS NULL;
