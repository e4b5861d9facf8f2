-- Delivery leases, as on PostgreSQL (Schema/postgres/0001_initial.sql), so both databases have the same columns.
-- With several vouchd on PostgreSQL a node claims due deliveries (FOR UPDATE SKIP LOCKED) and writes its name and
-- the end of its lease before it sends; another node takes a pending delivery only once the lease is absent or
-- past. On SQLite one vouchd writes, so the columns stay NULL unless the store sets them the same way.
ALTER TABLE webhook_deliveries ADD COLUMN lease_owner TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN lease_expires_at_ms INTEGER;
