-- Parlor schema, version 2: claims, so that exactly one process acts on a deadline or a computer move.
-- (kind, item) names the work ("deadline", match id), ("ai", match id); the owner holds it until expires_at.
CREATE TABLE IF NOT EXISTS claims (
    kind            TEXT NOT NULL,
    item            INTEGER NOT NULL,
    owner           TEXT NOT NULL,
    expires_at      REAL NOT NULL,
    PRIMARY KEY (kind, item)
);
CREATE INDEX IF NOT EXISTS claims_expiry ON claims (kind, expires_at);
