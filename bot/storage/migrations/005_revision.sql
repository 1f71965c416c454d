-- Parlor schema, version 5: a revision counter per match row, bumped by every write of the row.
-- The optimistic check of a save is on (version, rev): writes that keep the version (where the board is
-- shown, presentation data such as the vote message) can no longer be overwritten by a move that another
-- process read before them, nor overwrite one another.
ALTER TABLE matches ADD COLUMN rev INTEGER NOT NULL DEFAULT 0
;
