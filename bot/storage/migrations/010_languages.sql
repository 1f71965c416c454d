-- Parlor schema, version 10: languages (issue 33). A player's own language for Parlor (/language), the
-- same in every server; a server's language for the posts in its channels (/parlor settings language:).
-- No row means automatic: the player's Discord language, the server's Discord community language.
-- ``language`` is Parlor's code (en, es, pt_BR).
CREATE TABLE user_languages (
    user_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    updated_at REAL NOT NULL
)
;
CREATE TABLE guild_languages (
    guild_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    updated_at REAL NOT NULL
)
