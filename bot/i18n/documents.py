"""Long texts kept as files beside their code (a game's ``rules_text.md`` and ``summary.md``): each
language's version is the same name with the language before the extension (``rules_text.es.md``).
A language without its own file reads the English one."""

from __future__ import annotations

from importlib import resources

from bot.i18n import language, pseudo_mode
from bot.i18n.pseudo import pseudo


def read_document(package: str, name: str, lang: str | None = None) -> str:
    """The text of ``name`` (in ``package``) in ``lang`` (default: the current language)."""
    lang = lang or language()
    stem, _dot, ext = name.rpartition(".")
    folder = resources.files(package)
    own = folder / f"{stem}.{lang}.{ext}"
    path = own if lang != "en" and own.is_file() else folder / name
    text = path.read_text(encoding="utf-8")
    if pseudo_mode():  # paragraph by paragraph, so headings and lists keep their markdown
        text = "\n\n".join(pseudo(p) if p.strip() else p for p in text.split("\n\n"))
    return text
