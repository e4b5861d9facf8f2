-- The criteria report voids an approval when a failing record of the revision came at or after it. It used to read
-- every failing record of the revision on every report (a million at ten million records), though only the first
-- at or after each approval counts; now it asks for that one per approval, through this index: a seek, however
-- many records (docs/storage.md, "The failing record after an approval").
CREATE INDEX feedback_failing_by_time ON feedback (fix_key, revision, recorded_at_ms, seq) WHERE verdict = 'failed';
