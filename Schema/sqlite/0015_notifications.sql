-- Notifications by email (docs/notifications.md).
-- A tester's address for mail, apart from the free-text contact; erased with the rest of her identity.
ALTER TABLE tester_identities ADD COLUMN email TEXT;
-- A staff principal's address for mail, given when its token is made.
ALTER TABLE tokens ADD COLUMN email TEXT;
-- The outbox: one row per notification, written in the transaction of the change that causes it. The address is a
-- copy taken then, so a withdrawal mail can still go once her identity is erased; it is erased itself once the
-- notification is sent, given up or cancelled. The text is composed when it is sent, from the kind, the fix and
-- the language.
CREATE TABLE notifications (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    recipient TEXT NOT NULL,
    address TEXT,
    language TEXT NOT NULL,
    fix_key TEXT,
    revision INTEGER,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at_ms INTEGER,
    last_error TEXT,
    lease_owner TEXT,
    lease_expires_at_ms INTEGER,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
);
CREATE INDEX notifications_due ON notifications (status, next_attempt_at_ms);
CREATE INDEX notifications_recipient ON notifications (recipient);
-- The kinds of mail a recipient switched off (List-Unsubscribe); gone with her on withdrawal.
CREATE TABLE notification_opt_outs (
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (recipient, kind)
);
