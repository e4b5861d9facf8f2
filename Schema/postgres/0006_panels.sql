-- Panels: named groups of testers ("VoiceOver on iOS") that a maintainer enrolls in a fix at once, and that an
-- invitation may add her to (docs/invitations.md, "Panels"), as Schema/sqlite/0014 makes them. A panel's name says
-- nothing about one person, but being in "VoiceOver on iOS" says which assistive technology she uses: withdrawal
-- takes her out of every panel. Names are unique whatever their case: name_folded is the name lowercased, written
-- by the store.
CREATE TABLE panels (
    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    name_folded TEXT COLLATE "C" NOT NULL UNIQUE,
    description TEXT COLLATE "C",
    created_by TEXT COLLATE "C" NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE TABLE panel_members (
    panel_id TEXT COLLATE "C" NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    tester_id TEXT COLLATE "C" NOT NULL REFERENCES testers (id) ON DELETE CASCADE,
    added_by TEXT COLLATE "C" NOT NULL,
    added_at_ms BIGINT NOT NULL,
    PRIMARY KEY (panel_id, tester_id)
);

CREATE INDEX panel_members_by_tester ON panel_members (tester_id, panel_id);

-- The panels she joins when she accepts an invitation: a JSON array of panel ids, like fix_keys.
ALTER TABLE invitations ADD COLUMN panel_ids TEXT COLLATE "C" NOT NULL DEFAULT '[]';
