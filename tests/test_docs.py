"""The README stays a front door and the developers' guide tells the tree as it is.

The documentation site itself (docs/, mkdocs.yml) is built by ``make test`` with
``mkdocs build --strict``, which fails on a broken link or anchor between its pages; these tests
check what that build cannot see: the README (outside the site), and the guide against the code.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "developers" / "index.md"
SETTINGS_PAGE = ROOT / "docs" / "operators" / "settings.md"
#: The folders whose packages the guide's layout must name, every one.
PACKAGE_ROOTS = ("bot", "cogs")
#: A heading of the layout: ``### `bot/engine/` — the rules``.
PACKAGE_HEADING = re.compile(r"^#{3}\s+`([\w/]+/)`")
#: What a bullet of the layout may name in backticks: a file or a folder of the heading's package
#: (``game.py``, ``locales/``), or a path from the top of the repository (``bot/limits.py``).
NAMED_FILE = re.compile(r"`([\w.]+\.(?:py|pyi|c|json|txt)|\w+/|(?:bot|cogs|tests|benchmarks)/[\w./]*)`")


def layout_section() -> list[str]:
    """The lines of the guide's "The layout" section."""
    lines = GUIDE.read_text().splitlines()
    start = lines.index("## The layout")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1 : end]


def named_in_layout() -> tuple[set[str], set[str]]:
    """The packages the layout has a heading for, and every path it names (from the top)."""
    packages: set[str] = set()
    paths: set[str] = set()
    package: str | None = None  # None: the paragraph before the first heading tells how to read the section
    for line in layout_section():
        if line.startswith("### "):
            heading = PACKAGE_HEADING.match(line)
            package = heading.group(1) if heading else ""  # a heading of no package: paths from the top
            if heading:
                packages.add(package.rstrip("/"))
                paths.add(package)
            continue
        if package is None:
            continue
        for name in NAMED_FILE.findall(line):
            from_top = name.split("/")[0] in ("bot", "cogs", "tests", "benchmarks") and "/" in name.rstrip("/")
            paths.add(name if from_top else package + name)
    return packages, paths


def packages_in_tree() -> set[str]:
    """Every package under bot/ and cogs/: a folder with an ``__init__.py``, as a path from the top."""
    return {
        init.parent.relative_to(ROOT).as_posix()
        for root in PACKAGE_ROOTS
        for init in (ROOT / root).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }


def test_the_developers_guide_has_a_heading_for_every_package_of_bot_and_cogs():
    named, _ = named_in_layout()
    missing = packages_in_tree() - named
    assert not missing, f"docs/developers/index.md, 'The layout', names no heading for: {sorted(missing)}"


def test_every_package_the_developers_guide_names_is_a_package_of_the_tree():
    named, _ = named_in_layout()
    in_scope = {package for package in named if package.split("/")[0] in PACKAGE_ROOTS}
    gone = in_scope - packages_in_tree()
    assert not gone, f"docs/developers/index.md names packages the tree does not have: {sorted(gone)}"


def test_every_file_and_folder_the_developers_guide_names_exists():
    _, paths = named_in_layout()
    assert len(paths) > 50  # the parsing found the layout's files, not nothing
    missing = sorted(path for path in paths if not (ROOT / path).exists())
    assert not missing, f"docs/developers/index.md names what the tree does not have: {missing}"


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    lines = README.read_text().splitlines()
    assert len(lines) <= 300, f"the README has {len(lines)} lines: move the details into docs/"


def test_every_link_of_the_readme_into_the_repository_leads_to_a_file():
    text = README.read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'<img src="([^"]+)"', text)
    local = [target for target in targets if not re.match(r"[a-z]+:", target)]
    assert any(target.startswith("docs/") for target in local)  # the links into the site were found
    broken = sorted(target for target in local if not (ROOT / target).is_file())
    assert not broken, f"the README links to files that do not exist: {broken}"


def test_every_setting_of_env_example_is_in_the_readme_and_in_the_operators_settings():
    settings = re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), flags=re.MULTILINE)
    assert "DISCORD_TOKEN" in settings and "METRICS_PORT" in settings
    for page in (README, SETTINGS_PAGE):
        rows = page.read_text()
        missing = [name for name in settings if f"| `{name}` |" not in rows]
        assert not missing, f"{page.relative_to(ROOT)}'s settings table lacks {missing}"
