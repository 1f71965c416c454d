"""Installed as the package ``parlor_assets`` (pyproject.toml maps this folder): the vendored fonts and their
licence, read through ``importlib.resources`` (``bot.render``), never through a path into the source tree."""
