-- The authors of a fix's revision are read from its audit events of the authoring actions (RevisionAuthor
-- .authoringActions) after every submission of feedback: through audit_events_by_fix that read walked every event of
-- the fix, one feedback.create per record, so each check grew with the records. This index holds the few authoring
-- events alone; its list must stay the query's, in the same order (StoreRevisionAuthorsTests checks the plan on SQLite).
CREATE INDEX audit_events_authoring ON audit_events (fix_key, id)
    WHERE action IN ('fix.create', 'fix.update', 'fix.revise', 'fix.targets', 'fix.criteria', 'fix.rollout');
