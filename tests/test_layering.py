"""The dependency rule between the packages, checked statically and in a real child.

* ``sandbox`` and ``bridge`` never import ``codemode``.
* ``codemode`` knows a pool only by its interface, ``sandbox.Pool``: it never
  imports an implementation's module or Ray, never names ``RayPool``, and
  ``CodeMode`` takes any ``Pool`` (``codemode escape-test``, a test of the
  local sandbox itself, is the one exception). Importing ``sandbox`` loads no Ray.
* Whatever the child process imports (the zygote and child modules, and what
  they import in turn) never reaches the host side: ``codemode``,
  ``bridge.host`` (and the layers of its endpoint), anyio, ``sandbox._pool`` (and its layers),
  ``sandbox.testing``.

The static check reads import statements (skipping ``if TYPE_CHECKING:``
blocks, which never run). The dynamic checks read ``sys.modules`` of a fresh
isolated interpreter that imports the child side, and of a real pool child.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sandbox", "bridge")

#: Modules the child starts from: the zygote imports these before forking.
CHILD_ENTRY_POINTS = (
    "sandbox._zygote", "sandbox._child", "bridge.child", "bridge.proxy", "bridge.protocol"
)

#: Nothing on the child side may import these (or anything under them).
HOST_ONLY = (
    "codemode", "bridge.host", "bridge._call_table", "bridge._pipe_reader", "bridge.tasks",
    "bridge._decoding", "anyio", "sandbox._pool", "sandbox._pool_children", "sandbox._pool_tasks",
    "sandbox._host_compile",
    "sandbox.testing",
    "sandbox._pool_interface", "sandbox._ray", "ray",
)

#: What ``codemode`` may know of a pool is the interface, ``sandbox.Pool``: no
#: implementation's module (and no Ray). The default pool it starts is built
#: through the public ``sandbox.WorkerPool`` name.
POOL_IMPLEMENTATIONS = (
    "sandbox._pool", "sandbox._pool_children", "sandbox._pool_tasks", "sandbox._host_compile",
    "sandbox._ray", "ray", "sandbox.testing",
)
#: ``codemode escape-test`` tests the local sandbox itself: it runs the escape
#: corpus through a ``WorkerPool`` and counts the host work inside it, so it
#: names that pool's internals on purpose. It is not on any run's path.
POOL_AWARE = ("codemode/escapes/",)


@dataclass(frozen=True)
class Import:
    """One import statement's target, as an absolute module name."""

    module: str
    importer: str
    line: int


def module_path(name: str) -> Path | None:
    """The source file of project module ``name``, or ``None`` if it is not one."""
    parts = name.split(".")
    if parts[0] not in PACKAGES:
        return None
    base = ROOT.joinpath(*parts)
    if (base / "__init__.py").exists():
        return base / "__init__.py"
    if base.with_suffix(".py").exists():
        return base.with_suffix(".py")
    return None


def is_type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, *, include_type_checking: bool) -> list[Import]:
    """Every module that module ``name`` imports (absolute names)."""
    path = module_path(name)
    assert path is not None, name
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST) -> None:
        if not include_type_checking and is_type_checking_block(node):
            assert isinstance(node, ast.If)
            for statement in node.orelse:
                visit(statement)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.append(Import(base, name, node.lineno))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if module_path(candidate) is not None:
                    found.append(Import(candidate, name, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def project_modules() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join(parts))
    return names


def is_under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def child_closure() -> dict[str, list[Import]]:
    """The project modules the child side imports, each with its runtime imports."""
    seen: dict[str, list[Import]] = {}
    todo = [m for m in CHILD_ENTRY_POINTS if module_path(m) is not None]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        found = imports_of(name, include_type_checking=False)
        seen[name] = found
        # Importing a submodule runs its packages' __init__ first.
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        for target in [*parents, *(i.module for i in found)]:
            if module_path(target) is not None and target not in seen:
                todo.append(target)
    return seen


def describe(imports: list[Import]) -> list[str]:
    return [f"{i.importer} imports {i.module} (line {i.line})" for i in imports]


def test_sandbox_and_bridge_never_import_codemode() -> None:
    offending = [
        i
        for name in project_modules()
        for i in imports_of(name, include_type_checking=True)
        if is_under(i.module, ("codemode",))
    ]
    assert describe(offending) == []


def test_the_child_side_imports_nothing_from_the_host_side() -> None:
    closure = child_closure()
    assert {"bridge.child", "bridge.proxy"} <= closure.keys()
    offending = [
        i for found in closure.values() for i in found if is_under(i.module, HOST_ONLY)
    ]
    assert describe(offending) == []


def test_the_static_check_sees_a_host_import() -> None:
    # The checker itself must be able to fail: bridge.host imports anyio.
    assert any(i.module == "anyio" for i in imports_of("bridge.host", include_type_checking=False))


def host_only_loaded(modules: list[str]) -> list[str]:
    return [m for m in modules if is_under(m, HOST_ONLY)]


def test_a_fresh_interpreter_importing_the_child_side_loads_no_host_module() -> None:
    entry_points = [m for m in CHILD_ENTRY_POINTS if module_path(m) is not None]
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import importlib\n"
        "for name in sys.argv[2:]: importlib.import_module(name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-I", "-c", script, str(ROOT), *entry_points],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={},
    )
    modules = completed.stdout.split()
    assert {"bridge.child", "bridge.proxy"} <= set(modules)
    assert host_only_loaded(modules) == []


@pytest.mark.slow
async def test_a_real_child_loads_no_host_module() -> None:
    if module_path("sandbox._pool") is None:
        pytest.skip("the sandbox pool is not part of this tree")
    from sandbox import Limits, WorkerPool
    from sandbox.testing import EchoHandler

    # Without the language layer the program is plain Python and can read
    # sys.modules; the child process is the same as for any other program.
    limits = Limits(language_layer=False)
    with anyio.fail_after(60):
        async with WorkerPool(limits=limits, size=1) as pool:
            result = await pool.run(
                "import sys\nreturn sorted(sys.modules)", tool_names=[], handler=EchoHandler()
            )
    assert result.error is None, result.error
    assert isinstance(result.value, list)
    modules = [str(m) for m in result.value]
    assert {"bridge.child", "bridge.proxy"} <= set(modules)
    assert host_only_loaded(modules) == []


def codemode_sources() -> list[Path]:
    """The ``codemode`` source files that must know no pool implementation."""
    return [
        path
        for path in sorted((ROOT / "codemode").rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(POOL_AWARE)
    ]


def codemode_imports() -> list[Import]:
    """Every import statement in ``codemode`` (``TYPE_CHECKING`` blocks included)."""
    found: list[Import] = []
    for path in codemode_sources():
        parts = path.relative_to(ROOT).with_suffix("").parts
        package = ".".join(parts[:-1])  # what a relative import starts from, either way
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                found.extend(Import(alias.name, name, node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*base_parts, *([node.module] if node.module else [])])
                found.append(Import(base, name, node.lineno))
                found.extend(Import(f"{base}.{a.name}", name, node.lineno) for a in node.names)
    return found


def test_codemode_knows_no_pool_implementation() -> None:
    imports = codemode_imports()
    assert any(i.module == "sandbox.Pool" for i in imports)  # the checker sees the interface
    offending = [i for i in imports if is_under(i.module, POOL_IMPLEMENTATIONS)]
    assert describe(offending) == []
    naming = [
        str(path.relative_to(ROOT))
        for path in codemode_sources()
        if "RayPool" in path.read_text(encoding="utf-8")
    ]
    assert naming == []


def test_code_mode_takes_any_pool() -> None:
    import inspect

    from codemode.code_mode import CodeMode

    annotation = inspect.signature(CodeMode).parameters["pool"].annotation
    assert annotation == "Pool | None"


def test_importing_sandbox_and_naming_ray_pool_loads_no_ray() -> None:
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import sandbox\n"
        "pool = sandbox.RayPool(size=1)\n"
        "assert isinstance(pool, sandbox.Pool)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-I", "-c", script, str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={},
    )
    modules = completed.stdout.split()
    assert "sandbox._ray._pool" in modules
    assert [m for m in modules if is_under(m, ("ray",))] == []
