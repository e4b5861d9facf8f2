-- On the web a screen reader is tested together with a browser, so web feedback names it (NULL for other platforms).
ALTER TABLE feedback ADD COLUMN browser TEXT;
ALTER TABLE feedback ADD COLUMN browser_version TEXT;
