-- Parlor schema, version 8: text boards (issue 31). A member who chose text boards (/notify boards:text)
-- gets each board's position as text with the boards they are sent (the board message they are to move
-- on, their DM turn notice), per server like the rest of /notify.
ALTER TABLE notify_prefs ADD COLUMN text_boards INTEGER NOT NULL DEFAULT 0
