-- Push chosen per app: an sdk token made with event_streams = 0 gets OFREP bulk answers without `eventStreams`, for
-- providers that refuse an unknown member (docs/contracts.md, "Push per token"). Tokens made before offer push, as
-- the whole daemon did.
ALTER TABLE tokens ADD COLUMN event_streams INTEGER NOT NULL DEFAULT 1;
-- What a webhook endpoint's requests look like (docs/contracts.md, "Formats"): standard (Standard Webhooks, as every
-- endpoint made before), github-dispatch or slack. The stored event body stays the Standard Webhooks one; the
-- format shapes each attempt from it.
ALTER TABLE webhook_endpoints ADD COLUMN format TEXT NOT NULL DEFAULT 'standard';
-- A github-dispatch endpoint's token file: its name in webhooks.token_directory, never the token itself.
ALTER TABLE webhook_endpoints ADD COLUMN token_file TEXT;
