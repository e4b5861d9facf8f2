-- A webhook delivery being sent is leased to the process sending it: with several vouchd on one database
-- (PostgreSQL) another process takes it over once the lease expires, and the first may no longer record an attempt.
-- On SQLite one process owns the file; it clears every lease when it opens the database.
ALTER TABLE webhook_deliveries ADD COLUMN lease_owner TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN lease_expires_at_ms INTEGER;
