-- Which record is each tester's latest on a fix revision (sqlite 0022) moves out of the feedback table into one narrow
-- row per (fix, revision, tester). Each submission used to rewrite the previous record's is_latest: a new version of
-- the whole wide row with an entry in each of its six indexes, and the partial index's dead entries for the same
-- tester grew until VACUUM, so every later submission scanned more of them (docs/storage.md, "The latest feedback per
-- tester"). Now a submission moves one pointer: seq is in no index, so the update stays on its page (a HOT update),
-- and the pages keep room for it.
CREATE TABLE latest_feedback (
    fix_key TEXT COLLATE "C" NOT NULL,
    revision INTEGER NOT NULL,
    -- NULL once the tester withdrew and her feedback stayed, unlinked: the verdict still counts.
    tester_id TEXT COLLATE "C",
    -- The feedback record's seq.
    seq BIGINT NOT NULL
) WITH (fillfactor = 50);

CREATE UNIQUE INDEX latest_feedback_by_tester ON latest_feedback (fix_key, revision, tester_id);

INSERT INTO latest_feedback (fix_key, revision, tester_id, seq)
    SELECT fix_key, revision, tester_id, seq FROM feedback WHERE is_latest = 1;

DROP INDEX feedback_latest;
ALTER TABLE feedback DROP COLUMN is_latest;
