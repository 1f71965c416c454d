-- Parlor schema, version 9: puzzles (issue 30). Puzzles are not matches: nothing here is rated.
-- One row per server, member and puzzle: the FIRST result counts (solved or not); ``guild_id`` 0 outside
-- servers. The per-server puzzle leaderboard counts the solved rows.
CREATE TABLE puzzle_results (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id, puzzle_id)
)
;
CREATE INDEX puzzle_results_board ON puzzle_results (guild_id, game, solved)
;
-- The daily puzzle: where a server wants it and when the next one is due. ``last_day`` is the UTC day
-- (days since 1970) last posted; ``next_due`` moves on in the same write that claims a post, so a
-- restart neither repeats nor skips a day.
CREATE TABLE puzzle_daily (
    guild_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    next_due REAL NOT NULL,
    last_day INTEGER NOT NULL DEFAULT -1,
    updated_at REAL NOT NULL
)
;
