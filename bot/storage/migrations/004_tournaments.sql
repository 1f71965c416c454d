-- Parlor schema, version 4: tournaments (Swiss and round-robin events whose pairings are matches).
CREATE TABLE IF NOT EXISTS tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    organiser_id    INTEGER NOT NULL,
    game            TEXT NOT NULL,
    format          TEXT NOT NULL,
    rounds          INTEGER,
    round_time      INTEGER NOT NULL,
    turn_limit      INTEGER NOT NULL,
    rated           INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL,
    current_round   INTEGER NOT NULL DEFAULT 0,
    starts_at       REAL NOT NULL,
    deadline        REAL,
    seed            TEXT NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0,
    data            TEXT NOT NULL DEFAULT '{}',
    created_at      REAL NOT NULL,
    updated_at      REAL NOT NULL,
    finished_at     REAL
);
CREATE INDEX IF NOT EXISTS tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX IF NOT EXISTS tournaments_deadline ON tournaments (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    name            TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    withdrawn_round INTEGER,
    joined_at       REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX IF NOT EXISTS tournament_entrants_user ON tournament_entrants (user_id);

-- One row per round that has started: its primary key is what makes starting a round happen once.
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL,
    started_at      REAL NOT NULL,
    deadline        REAL,
    finished_at     REAL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE IF NOT EXISTS tournament_pairings (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL,
    white_id        INTEGER NOT NULL,
    black_id        INTEGER,
    result          TEXT,
    match_id        INTEGER,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX IF NOT EXISTS tournament_pairings_match ON tournament_pairings (match_id)
    WHERE match_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS tournament_settings (
    guild_id        INTEGER PRIMARY KEY,
    organiser_role  INTEGER,
    max_events      INTEGER NOT NULL DEFAULT 3,
    updated_at      REAL NOT NULL
);
