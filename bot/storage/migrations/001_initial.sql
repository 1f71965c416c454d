-- Parlor schema, version 1.
CREATE TABLE IF NOT EXISTS guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    use_threads     INTEGER NOT NULL DEFAULT 1,
    turn_limit      INTEGER NOT NULL DEFAULT 86400,
    updated_at      REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game            TEXT NOT NULL,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    message_id      INTEGER,
    status          TEXT NOT NULL,
    options         TEXT NOT NULL,
    state           TEXT,
    version         INTEGER NOT NULL DEFAULT 0,
    seed            TEXT NOT NULL,
    host_id         INTEGER NOT NULL,
    rated           INTEGER NOT NULL DEFAULT 1,
    turn_limit      INTEGER NOT NULL,
    deadline        REAL,
    clocks          TEXT,
    outcome         TEXT,
    ui              TEXT NOT NULL DEFAULT '{}',
    created_at      REAL NOT NULL,
    updated_at      REAL NOT NULL,
    finished_at     REAL
);
CREATE INDEX IF NOT EXISTS matches_status ON matches (status);
CREATE INDEX IF NOT EXISTS matches_place ON matches (channel_id, status);
CREATE INDEX IF NOT EXISTS matches_thread ON matches (thread_id);
CREATE INDEX IF NOT EXISTS matches_deadline ON matches (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE IF NOT EXISTS seats (
    match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    name            TEXT NOT NULL,
    ai_level        TEXT,
    data            TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_user ON seats (user_id);

CREATE TABLE IF NOT EXISTS moves (
    match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply             INTEGER NOT NULL,
    seat            INTEGER NOT NULL,
    user_id         INTEGER,
    notation        TEXT NOT NULL,
    created_at      REAL NOT NULL,
    PRIMARY KEY (match_id, ply)
);

CREATE TABLE IF NOT EXISTS ratings (
    guild_id        INTEGER NOT NULL,
    game            TEXT NOT NULL,
    user_id         INTEGER NOT NULL,
    mu              REAL NOT NULL,
    sigma           REAL NOT NULL,
    wins            INTEGER NOT NULL DEFAULT 0,
    losses          INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    games           INTEGER NOT NULL DEFAULT 0,
    updated_at      REAL NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE TABLE IF NOT EXISTS rating_history (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    game            TEXT NOT NULL,
    user_id         INTEGER NOT NULL,
    match_id        INTEGER NOT NULL,
    rank            INTEGER NOT NULL,
    mu_before       REAL NOT NULL,
    sigma_before    REAL NOT NULL,
    mu_after        REAL NOT NULL,
    sigma_after     REAL NOT NULL,
    created_at      REAL NOT NULL,
    UNIQUE (match_id, user_id)
);
CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history (guild_id, game, user_id, created_at);

CREATE TABLE IF NOT EXISTS counters (
    guild_id        INTEGER NOT NULL,
    game            TEXT NOT NULL,
    user_id         INTEGER NOT NULL,
    name            TEXT NOT NULL,
    value           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id, name)
);
