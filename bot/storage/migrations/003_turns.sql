-- Parlor schema, version 3: turn notifications, reminders, thread archiving.
-- How each member wants to hear that it is their turn, per server: thread (ping in the match thread), dm, off.
CREATE TABLE IF NOT EXISTS notify_prefs (
    guild_id        BIGINT NOT NULL,
    user_id         BIGINT NOT NULL,
    mode            TEXT NOT NULL,
    dm_channel_id   BIGINT,            -- the member's DM channel with the bot, opened when they chose dm
    updated_at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- The reminder of the current turn (20% of the turn limit left, at most 24 h before) and when the
-- match thread is archived (an hour after the end). Stored like the deadline, so a restart neither
-- loses nor repeats either.
ALTER TABLE matches ADD COLUMN remind_at DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN archive_at DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS matches_remind_at ON matches (remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS matches_archive_at ON matches (archive_at) WHERE archive_at IS NOT NULL
;

-- The match version its live board shows (set once a move is fully presented). A board behind its match
-- (the process died, or the reply failed, after the move was stored) is re-posted at start-up.
ALTER TABLE matches ADD COLUMN board_version INTEGER
