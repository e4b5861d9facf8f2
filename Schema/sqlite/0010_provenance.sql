-- How each change was made, beyond who made it (docs/console.md, "Personal links").
-- A tester may act through a personal link that a staff member created, and staff may open that link themselves:
-- what is entered then is not the tester's own act, so the audit log and her feedback keep the link, its creator
-- and the staff member signed in in the browser that opened it.
ALTER TABLE audit_events ADD COLUMN via TEXT;
ALTER TABLE feedback ADD COLUMN link_id TEXT;
ALTER TABLE feedback ADD COLUMN link_created_by TEXT;
ALTER TABLE feedback ADD COLUMN link_opened_by TEXT;
ALTER TABLE console_sessions ADD COLUMN opened_by TEXT;
CREATE INDEX console_sessions_by_link ON console_sessions (link_id, created_at_ms);
