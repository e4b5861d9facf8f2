-- Flag definitions per token: /flagd/v1/flags.json lists every targeted key, so an sdk token reads it only when made
-- for a flagd (flag_definitions = 1; docs/flagd.md, "Tokens for flagd"). Every token made before loses the right:
-- sdk tokens are built into apps, and anyone can take one out of an app.
ALTER TABLE tokens ADD COLUMN flag_definitions INTEGER NOT NULL DEFAULT 0;
