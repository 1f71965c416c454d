-- Parlor schema, version 7: where each learner stands in each game's /<game> learn lesson (issue 30).
-- One row per user and game; ``step`` is the step to show next (0-based), ``done`` once finished.
-- Lessons are not matches: nothing here is rated or listed.
CREATE TABLE lessons (
    user_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    step INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (user_id, game)
)
;
