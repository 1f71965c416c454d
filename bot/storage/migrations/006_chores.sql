-- Parlor schema, version 6: Discord chores that failed during an incident (Discord answering 5xx, or not at
-- all) and are retried with backoff until it answers, across restarts: retiring an earlier board, a turn
-- ping, a result post. ``payload`` is the message's JSON as sent to Discord; a row is deleted once done, so
-- a ping or a result goes out once.
CREATE TABLE IF NOT EXISTS discord_chores (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id        INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    payload         TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_at         REAL NOT NULL,
    created_at      REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS discord_chores_next ON discord_chores (next_at)
