-- Placeholder on branch receivers only: version 18 belongs to another branch, merged before this one. The
-- coordinator deletes this file when merging (the embed plugin refuses two migrations with one version, so it
-- cannot be forgotten).
SELECT 1;
