-- The configuration revision: one row per write transaction that changed what OFREP answers (a fix's rule), which
-- tokens are accepted, or a fix's criteria. The row's number is the revision, so it only grows and a rolled-back
-- transaction leaves none; the columns say what changed, so another vouchd on the same database catches up from a
-- revision alone ("what changed since N") instead of reloading everything.
-- Lists are comma-separated: fix keys ([a-z0-9][a-z0-9._-]*) and token ids (tok_ and letters or digits) hold no comma.
CREATE TABLE configuration_revisions (
    revision INTEGER PRIMARY KEY AUTOINCREMENT,
    committed_at_ms INTEGER NOT NULL,
    flag_rule_fixes TEXT NOT NULL DEFAULT '',
    added_tokens TEXT NOT NULL DEFAULT '',
    revoked_tokens TEXT NOT NULL DEFAULT '',
    criteria_fixes TEXT NOT NULL DEFAULT ''
);
