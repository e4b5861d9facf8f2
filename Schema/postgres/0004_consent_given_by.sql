-- Whose act a tester's consent was: hers, given on an invitation's pages ('tester'), or recorded by staff on her
-- behalf ('staff', what every consent before invitations was); and the language of the text she read
-- (docs/invitations.md).
ALTER TABLE testers ADD COLUMN consent_given_by TEXT COLLATE "C" NOT NULL DEFAULT 'staff';
ALTER TABLE testers ADD COLUMN consent_language TEXT COLLATE "C";
