-- Panels: named groups of testers ("VoiceOver on iOS") that a maintainer enrolls in a fix at once, and that an
-- invitation may add her to (docs/invitations.md, "Panels"). A panel's name says nothing about one person, but
-- being in "VoiceOver on iOS" says which assistive technology she uses: withdrawal takes her out of every panel.
-- Names are unique whatever their case: name_folded is the name lowercased, written by the store.
CREATE TABLE panels (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL UNIQUE,
    description TEXT,
    created_by TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL
);

CREATE TABLE panel_members (
    panel_id TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    tester_id TEXT NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    added_by TEXT NOT NULL,
    added_at_ms INTEGER NOT NULL,
    PRIMARY KEY (panel_id, tester_id)
) WITHOUT ROWID;

CREATE INDEX panel_members_by_tester ON panel_members (tester_id, panel_id);

-- The panels she joins when she accepts an invitation: a JSON array of panel ids, like fix_keys.
ALTER TABLE invitations ADD COLUMN panel_ids TEXT NOT NULL DEFAULT '[]';
