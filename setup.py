"""Two build steps beyond pyproject.toml.

- The translation catalogs are compiled while the package is built: ``bot/locales/*/LC_MESSAGES/*.po``
  becomes ``.mo`` in the wheel (Babel, a build requirement in pyproject.toml). A checkout reads the ``.po``.
- Pylon hard's search is compiled from ``bot/games/pylon/_scan.c`` (the board scan, the stacking search
  and the placement playouts: the same functions as their pure-Python versions, about forty times as fast
  together). It is optional: where no C compiler is found the build goes on and the bot uses the
  pure-Python search, with the same moves but more of them cut by hard's time cap (and placement
  playouts stacked to the end: their judged ending is too slow in Python). ``-ffp-contract=off``
  keeps the evaluation's floating-point sum the same as Python's, bit for bit.
"""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        import io

        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("bot/locales").glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as f:
                catalog = read_po(f, locale=po.parts[-3])
            buf = io.BytesIO()
            write_mo(buf, catalog, use_fuzzy=False)
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(buf.getvalue())


class BuildScan(build_ext):
    """GCC and Clang get ``-O2 -ffp-contract=off``; MSVC does not contract unless asked (/fp:fast)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = ["-O2", "-ffp-contract=off"]
        super().build_extensions()


setup(
    cmdclass={"build_py": BuildWithCatalogs, "build_ext": BuildScan},
    ext_modules=[Extension("bot.games.pylon._scan", ["bot/games/pylon/_scan.c"], optional=True)],
)
