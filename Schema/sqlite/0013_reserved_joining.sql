-- Reserved: another branch's migration takes this number on main. The notify branch holds it empty so that its
-- own migration builds on its own; merging takes the real file instead of this one.
SELECT 1;
