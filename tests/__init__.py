"""Parlor's tests mirror the product tree.

    tests/games/<game>/   bot/games/<game>/ (rules, notation, AI, rendering, golden images)
    tests/games/          the conformance suite every engine passes, and the engines' layout
    tests/render/         bot/render/
    tests/matches/        bot/matches/ (service, scheduler, turn timers, claims)
    tests/storage/        bot/storage/ (both backends, concurrency, copy-db, database faults)
    tests/tournaments/    bot/tournaments/
    tests/cogs/           unit tests of cogs/ pieces (a cog's behaviour is tested end to end)
    tests/e2e/            whole flows through the Discord double, as players drive them
    tests/test_<name>.py  bot/<name>.py (config, ratings, text, shard config), names and component ids
                          (bot/names.py, bot/components.py), the repository itself (deploy files, tracked
                          files, the import graph: tests/test_layers.py) and the Discord double

Helpers: tests/discord_double/ (the in-process Discord), tests/loopback/ (a vendored loopback
Discord for real processes), tests/sixth_game/ (tic-tac-toe, the game registered only here),
tests/pg.py and tests/conftest.py (``any_store``: a test against SQLite and PostgreSQL).
"""
