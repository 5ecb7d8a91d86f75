"""Imports go one way: no module of the project imports itself through others.

Every import statement counts, wherever it stands: at the top, under ``if TYPE_CHECKING:`` (a
circle for the types only is still two modules that cannot be read apart), inside a function.
``from package import name`` is an import of the submodule ``name`` when there is one, else of
the package; a compiled module (a ``.pyi`` stub or a ``.c`` source beside it) imports nothing of
ours.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The project's packages (pyproject.toml's ``packages.find``).
PACKAGES = ("bot", "cogs")


def modules_under(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every Python module of ``packages`` under ``root``, by its dotted name (a package by its own)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def compiled(root: Path, name: str) -> bool:
    """Whether ``name`` is a compiled module (its stub or its C source is beside it)."""
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".pyi").exists() or path.with_suffix(".c").exists()


def imports_of(name: str, path: Path, known: Mapping[str, Path], root: Path) -> set[str]:
    """The project's modules that module ``name`` (at ``path``) imports, anywhere in it."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                imported.add(target)
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in known:
                    imported.add(submodule)
                elif not compiled(root, submodule):
                    imported.add(source)
    return {target for target in imported if target in known and target != name}


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    known = modules_under(root, packages)
    return {name: imports_of(name, path, known, root) for name, path in known.items()}


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, each sorted (Tarjan's strongly connected
    components of more than one module), iteratively: the graph may be deep."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def described(graph: Mapping[str, set[str]], group: list[str]) -> str:
    """A circle as its imports: who imports whom within it."""
    members = set(group)
    return "; ".join(f"{name} → {', '.join(sorted(graph[name] & members))}" for name in group)


def test_no_module_of_the_project_imports_itself_through_others_not_even_for_its_types():
    graph = import_graph(ROOT, PACKAGES)
    assert len(graph) > 100  # the whole project was read
    found = circles(graph)
    assert found == [], "import circles:\n" + "\n".join(described(graph, group) for group in found)


def test_a_circle_of_imports_made_for_the_types_only_is_found(tmp_path):
    """The check itself: a circle closed by an import under ``TYPE_CHECKING`` (and one closed by
    an import inside a function) fails it, a compiled module's import does not."""
    shop = tmp_path / "shop"
    shop.mkdir()
    (shop / "__init__.py").write_text("")
    (shop / "_fast.pyi").write_text("def add(a: int, b: int) -> int: ...\n")
    (shop / "orders.py").write_text("from .customers import Customer\nfrom . import _fast\n")
    (shop / "customers.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from shop.orders import Order\n"
    )
    (shop / "invoices.py").write_text("def total():\n    from . import receipts\n")
    (shop / "receipts.py").write_text("import shop.invoices\n")
    (shop / "stock.py").write_text("from shop import orders\n")

    graph = import_graph(tmp_path, ["shop"])

    assert graph["shop.orders"] == {"shop.customers"}  # the compiled module is no edge to the package
    assert circles(graph) == [["shop.customers", "shop.orders"], ["shop.invoices", "shop.receipts"]]
