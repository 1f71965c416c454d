"""The installed package runs: the Dockerfile's recipe, outside Docker.

The build stage's ``COPY`` lines copy the sources into a scratch folder, ``pip wheel`` builds the wheel
there, and pip installs it into a fresh virtual environment (``venv --without-pip``, then ``pip --python``,
as the image does). Then, from an empty folder with no ``PYTHONPATH``: ``parlor --version``, ``parlor
migrate`` on a fresh SQLite database, and the image's ``CMD`` against the loopback Discord, where a player
challenges, accepts, moves and reads the rules, and the image's ``HEALTHCHECK`` says healthy.

Two differences from the image, both to stay fast and offline: the wheel is built with this environment's
setuptools (``--no-build-isolation``), and the fresh environment gets the dependencies of this one
through a ``.pth`` line (the wheel itself goes in with ``--no-deps``). The editable install of the tests'
environment is not seen there: ``.pth`` files in a folder added that way are not run, and the tests below
check that ``bot``, ``cogs`` and the fonts are imported from the fresh environment.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.loopback import FakeDiscord
from tests.loopback.helpers import is_board, parlor_env, start_pylon, two_players
from tests.test_deploy import dockerfile_stages

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]
MAPPED = {"parlor_assets": "assets"}  # installed package -> folder in the repository
IGNORED = ("__pycache__", "templates")  # templates: the catalogs' English .pot, for translators, not shipped
BUILT = (".pyc", ".so", ".pyd")  # what an editable install compiles beside the sources: not a source
COMPILED = {"bot/games/pylon/_scan.c": "bot/games/pylon/_scan"}  # C sources the wheel holds compiled
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*")
            if p.is_file() and not set(p.relative_to(folder).parts) & set(IGNORED) and p.suffix not in BUILT]


def test_pyproject_installs_every_package_folder():
    """The package list is explicit (``assets/`` is mapped), so a new folder of ``bot/`` or ``cogs/`` (a new
    game) must be added to it, or the wheel would leave it out."""
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == MAPPED
    wanted = set(MAPPED)
    for top in ("bot", "cogs"):
        for f in _files(ROOT / top):
            if "locales" in f.relative_to(ROOT).parts:  # the catalogs: package data of bot (no code)
                continue
            wanted.add(".".join(f.parent.relative_to(ROOT).parts))
    missing = sorted(wanted - set(setuptools["packages"]))
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"
    assert set(setuptools["packages"]) == wanted


@dataclass
class Installed:
    wheel: Path
    venv: Path
    site: Path
    work: Path

    def empty(self) -> Path:
        """A new empty folder to start a command in (nothing of the repository near it)."""
        folder = self.work / f"run-{len(list(self.work.glob('run-*')))}"
        folder.mkdir()
        return folder

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self, **extra: str) -> dict[str, str]:
        """A clean environment: the venv first on PATH, no PYTHONPATH, nothing of the tests' settings."""
        env = {k: os.environ[k] for k in ("HOME", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.venv)
        env.update(extra)
        return env

    def run(self, *cmd: str, cwd: Path | None = None, check: bool = True,
            **env: str) -> subprocess.CompletedProcess[str]:
        exe = str(self.venv / "bin" / cmd[0]) if (self.venv / "bin" / cmd[0]).exists() else cmd[0]
        out = subprocess.run([exe, *cmd[1:]], cwd=cwd or self.empty(), env=self.env(**env),
                             capture_output=True, text=True, timeout=120)
        if check:
            assert out.returncode == 0, f"{cmd} exited {out.returncode}:\n{out.stdout}\n{out.stderr}"
        return out


def _run(*cmd: str | Path, env: dict[str, str] | None = None) -> None:
    out = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, f"{cmd} exited {out.returncode}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"


def _build_and_install(work: Path, env: dict[str, str] | None = None) -> Installed:
    """The Dockerfile's build stage outside Docker (see the module docstring), in ``work``."""
    src = work / "src"
    src.mkdir()
    build, _runtime = dockerfile_stages()
    for line in build:  # the build stage's COPY lines: what the image builds from
        if line.startswith("COPY "):
            *sources, _dest = line.split()[1:]
            for name in sources:
                if (ROOT / name).is_dir():
                    shutil.copytree(ROOT / name, src / name,
                                    ignore=shutil.ignore_patterns(*IGNORED, *(f"*{b}" for b in BUILT)))
                else:
                    shutil.copy2(ROOT / name, src / name)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir",
         work / "wheels", src, env=env)
    (wheel,) = (work / "wheels").glob("parlor-*.whl")
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    site = Path(subprocess.check_output(
        [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        text=True).strip())
    # this environment's site-packages folders, as they are on sys.path (a venv's own, or ones it adds)
    paths = sysconfig.get_paths()
    deps = dict.fromkeys(p for p in (paths["purelib"], paths["platlib"], *sys.path)
                         if Path(p).name in ("site-packages", "dist-packages"))
    (site / "_parlor_test_dependencies.pth").write_text("".join(f"{d}\n" for d in deps))
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps", wheel)
    return Installed(wheel, venv, site, work)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return _build_and_install(tmp_path_factory.mktemp("wheel"))


@pytest.mark.slow
def test_the_wheel_holds_the_code_and_everything_read_at_run_time(installed):
    names = zipfile.ZipFile(installed.wheel).namelist()
    info = f"parlor-{VERSION}.dist-info/"
    assert {n.split("/")[0] for n in names} == {"bot", "cogs", "parlor_assets", info.rstrip("/")}
    expected = set()
    for package, folder in {"bot": "bot", "cogs": "cogs", **MAPPED}.items():
        expected |= {f"{package}/{p.relative_to(ROOT / folder).as_posix()}" for p in _files(ROOT / folder)}
    # C sources go in compiled (this machine has a compiler, as the image's build stage has), and every
    # translation catalog goes in compiled beside its source (setup.py)
    expected = {n for n in expected if n not in COMPILED} | {f"{stem}{SUFFIX}" for stem in COMPILED.values()}
    expected |= {n[:-3] + ".mo" for n in expected if n.startswith("bot/locales/") and n.endswith(".po")}
    assert {n for n in names if not n.startswith(info)} == expected
    for needed in ("bot/storage/migrations/001_initial.sql", "bot/games/pylon/rules_text.md",
                   "bot/games/pylon/summary.md", "bot/games/fire_and_ice/summary.md",  # /<game> rules
                   "bot/games/egg_carton/summary.md", "bot/games/eof/summary.md",
                   "bot/games/nomic/summary.md",
                   "bot/puzzles/puzzles.json",
                   "parlor_assets/fonts/DejaVuSans.ttf", "parlor_assets/fonts/LICENSE-DejaVu.txt",
                   "parlor_assets/fonts/LICENSE-Noto.txt",
                   "parlor_assets/fonts/NotoSansCJKsc-Regular-subset.otf",  # the fallbacks (bot.render.fonts)
                   "parlor_assets/fonts/NotoEmoji-Regular.ttf",
                   "parlor_assets/fonts/NotoSansArabic-Regular.ttf",
                   "parlor_assets/fonts/NotoSansDevanagari-Bold.ttf"):
        assert needed in names
    entry_points = zipfile.ZipFile(installed.wheel).read(info + "entry_points.txt").decode()
    assert "parlor = bot.__main__:main" in entry_points


@pytest.mark.slow
def test_installed_parlor_answers_from_an_empty_folder(installed):
    assert installed.run("parlor", "--version").stdout == f"parlor {VERSION}\n"
    assert installed.run("python", "-m", "bot", "--version").stdout == f"parlor {VERSION}\n"
    where = json.loads(installed.run("python", "-c", (
        "import json, sys, bot, cogs, parlor_assets, bot.render as r; "
        "print(json.dumps([bot.__file__, cogs.__file__, parlor_assets.__file__, str(r.FONTS), sys.path, "
        "[getattr(f, '__module__', '') or str(f) for f in sys.meta_path]]))"
    )).stdout)
    *files, path, finders = where
    assert all(Path(f).is_relative_to(installed.site) for f in files), files
    # nothing could import from the source tree: not its folder on sys.path, not an editable-install finder
    assert not any(p and Path(p).resolve() == ROOT for p in path), path
    assert not any("editable" in f for f in finders), finders
    assert installed.run("parlor", "bogus", check=False).returncode == 2
    no_token = installed.run("parlor", check=False)  # one line saying what to set, no traceback
    assert no_token.returncode == 2 and no_token.stderr.startswith("parlor: DISCORD_TOKEN is not set.")
    assert len(no_token.stderr.splitlines()) == 1


@pytest.mark.slow
def test_installed_parlor_runs_the_compiled_pylon_scan(installed):
    # the wheel was built with a compiler: hard's board scan is the compiled one, from the installed package
    found = json.loads(installed.run("python", "-c", (
        "import json; from bot.games.pylon import boardscan, _scan; "
        "print(json.dumps([boardscan.COMPILED, _scan.__file__]))")).stdout)
    assert found[0] is True and Path(found[1]).is_relative_to(installed.site), found


@pytest.mark.slow
def test_without_a_c_compiler_the_wheel_still_builds_and_hard_plays_in_pure_python(tmp_path):
    # No compiler (CC is a command that fails): the build says so and goes on, the wheel holds no compiled
    # module, and the installed hard level plays with the pure-Python search.
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    plain = _build_and_install(tmp_path, env)
    names = zipfile.ZipFile(plain.wheel).namelist()
    assert "bot/games/pylon/search.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    found = json.loads(plain.run("python", "-c", "\n".join((  # a move at the start of stacking: the search
        "import json, random",
        "from bot.games.pylon import RULES, Placement, boardscan, choose",
        "rng, s = random.Random(1), RULES.initial({}, 2)",
        "while s.is_placement:",
        "    moves = [m for m in RULES.legal_moves(s, s.to_move) if isinstance(m, Placement)]",
        "    s = RULES.apply(s, s.to_move, rng.choice(moves))[0]",
        "move = choose(s, s.to_move, rng, 'hard', budget=0.2)",
        "print(json.dumps([boardscan.COMPILED, str(move), str(RULES.apply(s, s.to_move, move)[0].last)]))",
    ))).stdout)
    assert found[0] is False and found[1] == found[2], found


@pytest.mark.slow
def test_installed_parlor_migrate_on_a_fresh_database(installed):
    numbers = sorted(int(p.name[:3]) for p in (ROOT / "bot/storage/migrations").glob("[0-9][0-9][0-9]_*.sql"))
    applied = ", ".join(map(str, numbers))
    here = installed.empty()
    out = installed.run("parlor", "migrate", cwd=here).stdout  # the default database: data/ in the folder
    assert out == (f"parlor: sqlite:///data/parlor.sqlite3 is at schema version {numbers[-1]} "
                   f"(applied {applied}).\n")
    assert (here / "data" / "parlor.sqlite3").is_file()
    fresh = f"sqlite:///{installed.work}/fresh.sqlite3"
    out = installed.run("parlor", "migrate", PARLOR_DATABASE=fresh).stdout
    assert f"schema version {numbers[-1]} (applied {applied})" in out
    out = installed.run("parlor", "migrate", PARLOR_DATABASE=fresh).stdout
    assert "(nothing to apply)" in out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
async def test_installed_parlor_plays_a_move_over_the_loopback_discord(installed, tmp_path):
    _build, runtime = dockerfile_stages()
    (cmd,) = [json.loads(i.removeprefix("CMD ")) for i in runtime if i.startswith("CMD ")]
    (check,) = [json.loads(i.split(" CMD ", 1)[1]) for i in runtime if i.startswith("HEALTHCHECK ")]
    port = str(_free_port())
    env = installed.env(**parlor_env(f"sqlite:///{tmp_path}/p.sqlite3", LOG_LEVEL="INFO",
                                     PARLOR_METRICS_PORT=port))
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild, chan, alice, bob = two_players(fd)
        env["PARLOR_COMMAND_GUILDS"] = str(guild.id)
        bot = await fd.start_bot(cwd=installed.empty(), script=str(installed.venv / "bin" / cmd[0]),
                                 args=cmd[1:], python=str(installed.python), env=env, inherit_env=False,
                                 timeout=60, wait_commands=True)
        assert f"Parlor {VERSION} starting" in bot.log_text()
        assert "Pylon search: compiled)" in bot.log_text()  # the wheel holds the compiled search
        thread, _board = await start_pylon(fd, chan, alice, bob)
        r = await alice.slash(thread, "pylon move", notation="S a1")
        board = await r.message()
        assert is_board(board) and "S a1" in board.text
        picture = board.attachments[0].image().convert("RGB")
        ink = sum(n for n, colour in picture.getcolors(1 << 16) or () if min(colour) > 200)
        assert ink > 200, "the board has no text drawn in it: were the fonts found?"
        rules = await (await bob.slash(thread, "pylon rules")).message()  # the diagram and the summary
        summary = (ROOT / "bot/games/pylon/summary.md").read_text().strip()
        assert summary[:30] in rules.text and "missing" not in rules.text
        health = installed.run(*check, PARLOR_METRICS_PORT=port)
        assert health.stdout.startswith("parlor: healthy: ") and '"database": "ok"' in health.stdout
        fd.assert_clean()
    # the process is gone: the same check now says unhealthy, with exit code 1
    assert installed.run(*check, check=False, PARLOR_METRICS_PORT=port).returncode == 1
