-- Reserved: the join pages' migration takes this number on main. The panels branch holds it empty so that its
-- next migration builds on its own; merging takes main's file instead of this one.
SELECT 1;
