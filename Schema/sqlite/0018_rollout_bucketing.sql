-- How a phased rollout buckets keys: `flagd` (flagd's `fractional`, so a flagd fed from /flagd/v1/flags.json answers
-- every key as Vouch does) for every rollout from now on; `unleash` for a rollout already under way, which keeps the
-- buckets its users were given until it ends (docs/decisions.md, "Bucketing flagd agrees with").
ALTER TABLE fixes ADD COLUMN rollout_bucketing TEXT NOT NULL DEFAULT 'flagd';
UPDATE fixes SET rollout_bucketing = 'unleash' WHERE rollout_percentage IS NOT NULL;
