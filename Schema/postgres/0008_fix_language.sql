-- The language a fix's title, UI area and expected announcement are written in (`ja`, `en`), so a console page in
-- another language marks them with `lang` for screen readers (docs/console.md, "Languages"). Fixes made before
-- have none recorded: nothing is guessed for them.
ALTER TABLE fixes ADD COLUMN language TEXT COLLATE "C";
