"""The translation catalogs are compiled while the package is built: ``bot/locales/*/LC_MESSAGES/*.po``
becomes ``.mo`` in the wheel (Babel, a build requirement in pyproject.toml). A checkout reads the ``.po``."""

from pathlib import Path

from setuptools import setup
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


setup(cmdclass={"build_py": BuildWithCatalogs})
