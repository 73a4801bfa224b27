"""The layers hold (docs/architecture.md): the engine imports nothing of the app, only the
cluster imports Redis, the API never reaches into a room's internals, each package imports only
the layers below it, no import circle anywhere in app/ (imports made only for type checking
count), and no module is over 400 lines. Read from the sources, not from what is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# Each package of app/ and the packages of app/ it may import (besides itself).
MAY_IMPORT: dict[str, set[str]] = {
    "engine": set(),
    "bus": set(),
    "wire": {"engine"},
    "store": {"engine", "jsonwire"},
    "tournaments": {"engine", "store", "bus", "rooms", "codes", "config", "jsonwire"},
    "rooms": {"engine", "store", "bus", "wire", "build", "codes", "config", "jsonwire",
              "mailbox"},
    "cluster": {"engine", "store", "bus", "rooms", "wire", "codes", "config", "jsonwire",
                "mailbox", "draining"},
    "api": {"engine", "store", "bus", "rooms", "wire", "build", "codes", "config", "jsonwire",
            "mailbox", "draining", "tournaments"},
}
# What of a room the API may use: the one room interface and what goes in and out of it.
ROOM_SURFACE = {"app.rooms", "app.rooms.commands", "app.rooms.command_models",
                "app.rooms.command_table", "app.rooms.messages", "app.rooms.codes",
                "app.rooms.errors", "app.rooms.metrics", "app.rooms.hub", "app.rooms.handle",
                "app.rooms.registry", "app.rooms.spec", "app.rooms.people", "app.rooms.quick"}
REDIS_MODULES = {"redis", "hiredis"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute, at any depth of its code."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{alias.name}" for alias in node.names)
    return found


def app_modules() -> dict[str, Path]:
    return {module_name(path): path for path in APP.rglob("*.py")}


def resolved(target: str, modules: dict[str, Path]) -> str | None:
    """The app module ``target`` names (``from pkg import name`` may name a module or not)."""
    while target:
        if target in modules:
            return target
        target = target.rsplit(".", 1)[0] if "." in target else ""
    return None


def test_each_package_imports_only_the_layers_below_it() -> None:
    modules = app_modules()
    for name, path in modules.items():
        parts = name.split(".")
        if len(parts) < 3 or parts[1] not in MAY_IMPORT:
            continue
        package = parts[1]
        for target in imports_of(path):
            if not target.startswith("app."):
                continue
            layer = target.split(".")[1]
            assert layer == package or layer in MAY_IMPORT[package], f"{name} imports {target}"


def test_only_the_cluster_imports_redis() -> None:
    for name, path in app_modules().items():
        if name.startswith("app.cluster"):
            continue
        for target in imports_of(path):
            assert target.split(".")[0] not in REDIS_MODULES, f"{name} imports {target}"


def test_the_api_uses_rooms_only_through_their_interface() -> None:
    modules = app_modules()
    for name, path in modules.items():
        if not name.startswith("app.api"):
            continue
        for target in imports_of(path):
            module = resolved(target, modules)
            if module is not None and module.startswith("app.rooms"):
                assert module in ROOM_SURFACE, f"{name} reaches into {module}"


def no_import_circle(modules: dict[str, Path]) -> None:
    """Fail naming the first import circle among ``modules`` (by name -> path)."""
    graph = {name: {m for t in imports_of(path) if (m := resolved(t, modules)) is not None
                    and m != name and not name.startswith(m + ".")}
             for name, path in modules.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circle = [*path[path.index(target):], target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_no_import_circle_in_the_app() -> None:
    no_import_circle(app_modules())


def test_no_import_circle_in_the_benchmarks() -> None:
    no_import_circle({module_name(path): path for path in (ROOT / "bench").glob("*.py")})


def test_no_module_of_the_app_is_over_400_lines() -> None:
    for name, path in app_modules().items():
        lines = len(path.read_text().splitlines())
        assert lines <= 400, f"{name}: {lines} lines"


def test_the_tests_mirror_the_app() -> None:
    """Each folder of tests/ is a package of app/ (or the browser's, or the benchmarks')."""
    packages = {path.name for path in APP.iterdir() if (path / "__init__.py").exists()}
    for folder in (ROOT / "tests").iterdir():
        if folder.is_dir() and (folder / "__init__.py").exists():
            assert folder.name in packages | {"e2e", "bench"}, f"tests/{folder.name}"
