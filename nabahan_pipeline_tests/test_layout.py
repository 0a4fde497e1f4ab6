"""The package's import graph: no cycles, the core never reaches the Dagster layer, bench and
tests stay apart.

Every import statement counts, also one inside a function (a lazy import is still a dependency).
``from X import Y`` is an edge to module X.Y when X.Y is a module, else to X. Importing a.b.c also
runs the __init__ of a and a.b first, so it is an edge to those packages too, except to the
importer's own packages: their __init__ has already started by the time the importer runs, so
that edge orders nothing. An explicit import of an own package (``from a import x`` inside a.b)
does count: it needs what a's __init__ defines.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "nabahan_pipeline"

# The Dagster layer and the entry points (the package root's lazy public face and __main__ too):
# only these may import dagster or one another.
DAGSTER_LAYER = ("orchestration", "definitions", "api", "cli", "console")
ENTRY_POINTS = ("", "__main__")
# Everything else is the core; these are the core modules and packages the layout names.
CORE = ("arabic", "etimad_db", "reference_agent", "agents", "evaluation", "files", "escaping", "errors",
        "settings", "version", "progress", "locations",
        "json_bounds", "reader_may_leave")


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_under(folder: Path) -> dict[str, Path]:
    """Every module under ``folder`` (a package or a plain folder) by its dotted name."""
    return {module_name(path, folder.parent): path for path in sorted(folder.rglob("*.py"))}


def imported_names(path: Path, name: str, known: set[str]) -> Iterator[str]:
    """The modules the file at ``path`` (module ``name``) imports, anywhere in it, resolved as the
    module docstring says (relative imports included)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                yield candidate if candidate in known else base


def dependencies(name: str, imported: str) -> set[str]:
    """What importing ``imported`` from module ``name`` runs first: the module and its packages
    other than ``name``'s own."""
    return {imported, *(packages_of(imported) - packages_of(name))}


def packages_of(name: str) -> set[str]:
    """The packages that hold module ``name``: a.b.c -> {a, a.b}."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


MODULES = modules_under(ROOT / PACKAGE)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules it depends on, any import anywhere in it (outside modules kept)."""
    known = set(modules)
    graph = {
        name: {dep for imported in imported_names(path, name, known) for dep in dependencies(name, imported)} - {name}
        for name, path in modules.items()
    }
    # The agents registry imports each adapter's module by the name its ADAPTERS line gives.
    from nabahan_pipeline.agents.registry import ADAPTERS

    graph.setdefault(f"{PACKAGE}.agents.registry", set()).update(
        f"{PACKAGE}.agents.{adapter.module}" for adapter in ADAPTERS)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle among the graph's own nodes as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph[node] & graph.keys()):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state and (cycle := visit(dep)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def layer_of(name: str) -> str:
    local = name.removeprefix(PACKAGE).removeprefix(".")
    top = local.split(".")[0]
    if local in ENTRY_POINTS or top in DAGSTER_LAYER:
        return "dagster"
    return "core"


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The package's import graph, parsed once for the tests that read it (not at collection:
    every xdist worker collects this module, one runs its tests)."""
    return import_graph(MODULES)


def test_the_graph_sees_lazy_imports_and_packages(graph: dict[str, set[str]]) -> None:
    # The registry builds its adapters by name (ADAPTERS); the test must see those imports.
    assert "nabahan_pipeline.agents.embedded" in graph["nabahan_pipeline.agents.registry"]
    # `from nabahan_pipeline.reference_agent import lexicon as lx` is an import of the module.
    assert "nabahan_pipeline.reference_agent.lexicon" in graph["nabahan_pipeline.reference_agent.parser.patterns"]
    # Importing etimad_db.sql_safety from evaluation runs etimad_db's __init__ first.
    assert "nabahan_pipeline.etimad_db" in graph["nabahan_pipeline.evaluation.agent_sql"]
    # A module's own package is not an edge; the root is every module's own package.
    assert "nabahan_pipeline.agents" not in graph["nabahan_pipeline.agents.runner"]
    assert PACKAGE not in graph["nabahan_pipeline.api"]


def test_find_cycle_finds_one_and_only_then() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "x"}, "b": {"c"}, "c": set()}) is None


def test_there_is_no_import_cycle(graph: dict[str, set[str]]) -> None:
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_every_module_is_in_a_layer_the_layout_names() -> None:
    named = {*DAGSTER_LAYER, *CORE} | {name for name in ENTRY_POINTS if name}
    unnamed = [name for name in MODULES if name != PACKAGE and name.split(".")[1] not in named]
    assert unnamed == [], "modules in no layer (add them to CORE or DAGSTER_LAYER)"


def layer_offences(graph: dict[str, set[str]]) -> list[str]:
    """Each import by a core module of dagster or of the Dagster layer (the package root included)."""
    return [
        f"{name} imports {dep}"
        for name, deps in sorted(graph.items())
        if layer_of(name) == "core"
        for dep in sorted(deps)
        if dep.split(".")[0] in ("dagster", "dagster_pandera")
        or (dep.split(".")[0] == PACKAGE and layer_of(dep) == "dagster")
    ]


def test_the_core_never_imports_dagster_or_the_dagster_layer(graph: dict[str, set[str]]) -> None:
    assert layer_offences(graph) == []


def test_the_layer_rule_catches_offences() -> None:
    graph = {
        "nabahan_pipeline.agents.runner": {"nabahan_pipeline.console", "pandas"},
        "nabahan_pipeline.evaluation.metrics": {"dagster", "nabahan_pipeline.agents.runner"},
        "nabahan_pipeline.agents.embedded": {"nabahan_pipeline"},  # the root's lazy face offers the API
        "nabahan_pipeline.orchestration.assets": {"dagster", "nabahan_pipeline.api"},
        "nabahan_pipeline.cli": {"nabahan_pipeline.api"},
    }
    assert layer_offences(graph) == [
        "nabahan_pipeline.agents.embedded imports nabahan_pipeline",
        "nabahan_pipeline.agents.runner imports nabahan_pipeline.console",
        "nabahan_pipeline.evaluation.metrics imports dagster",
    ]


def bench_and_test_imports() -> list[str]:
    bench = modules_under(ROOT / "bench")
    tests = modules_under(ROOT / "nabahan_pipeline_tests")
    known = {*bench, *tests, *MODULES}
    found = set()
    for modules, forbidden in ((bench, "nabahan_pipeline_tests"), (tests, "bench")):
        for name, path in modules.items():
            found |= {f"{name} imports {imported}" for imported in imported_names(path, name, known)
                      if imported.split(".")[0] == forbidden}
    return sorted(found)


def test_bench_and_tests_do_not_import_each_other() -> None:
    assert bench_and_test_imports() == []


# The one module that may use a socket itself: `nabahan agent serve`'s server, on the standard
# library's http.server (the address family it binds). Every HTTP request goes through urllib3.
RAW_NETWORK_ALLOWED = {f"{PACKAGE}.agents.server": {"socket", "http.server"}}
RAW_NETWORK = ("socket", "ssl", "select", "selectors", "http.client", "http.server")


def raw_network_uses(modules: dict[str, Path]) -> list[str]:
    """Each import of the standard library's sockets or HTTP (``from http import client`` too) by
    a module of the package, anywhere in it, but the allowed ones."""
    found = set()
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            for imported in names:
                banned = next((raw for raw in RAW_NETWORK if imported == raw or imported.startswith(raw + ".")), None)
                if banned and banned not in RAW_NETWORK_ALLOWED.get(name, set()):
                    found.add(f"{name} imports {banned}")
    return sorted(found)


def test_no_raw_socket_or_hand_made_http_in_the_package() -> None:
    assert raw_network_uses(MODULES) == []


def test_the_raw_network_rule_catches_offences(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    (package / "agents").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "agents" / "__init__.py").write_text("")
    (package / "agents" / "client.py").write_text("import socket\nfrom http import client\n")
    (package / "agents" / "server.py").write_text("import socket\nfrom http.server import ThreadingHTTPServer\n")
    (package / "lazy.py").write_text("def f():\n    import http.client\n    from ssl import create_default_context\n")
    assert raw_network_uses(modules_under(package)) == [
        f"{PACKAGE}.agents.client imports http.client",
        f"{PACKAGE}.agents.client imports socket",
        f"{PACKAGE}.lazy imports http.client",
        f"{PACKAGE}.lazy imports ssl",
    ]
# Dagster's private modules (whose classes its docs say only its own machinery instantiates), named
# in an import or in a string (importlib, a dagster.yaml written from the code).
_PRIVATE_DAGSTER = re.compile(r"(?<![\w.])dagster\._\w")
# SQLite told not to wait for the disk: only the database generator's scratch file may be.
_UNSYNCED = re.compile(r"synchronous\s*=\s*(off|0)\b", re.IGNORECASE)
UNSYNCED_ALLOWED = ("etimad_db/generator.py",)


def private_dagster_uses(source: str) -> list[str]:
    """Each import of a private Dagster module in ``source``, and each string naming one, by line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names if _PRIVATE_DAGSTER.match(alias.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            if any(_PRIVATE_DAGSTER.match(name) for name in names):
                found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _PRIVATE_DAGSTER.search(node.value):
            found.append((node.lineno, f"string {node.value.strip()[:60]!r}"))
    return [f"line {line}: {what}" for line, what in sorted(found)]


def durability_offences(root: Path) -> list[str]:
    """Each text file under ``root`` (but the allowed) that turns SQLite's syncing off."""
    return [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix in (".py", ".sql", ".yaml", ".yml", ".json", ".toml")
        and path.relative_to(root).as_posix() not in UNSYNCED_ALLOWED
        and _UNSYNCED.search(path.read_text(encoding="utf-8"))
    ]


def test_the_package_uses_no_private_dagster_module() -> None:
    offences = {name: uses for name, path in MODULES.items() if (uses := private_dagster_uses(path.read_text(encoding="utf-8")))}
    assert offences == {}


def test_the_private_dagster_rule_catches_every_form() -> None:
    source = """
import dagster._core.storage as storage
from dagster._serdes import ConfigurableClassData
from dagster import _check, asset
importlib.import_module("dagster._utils")
YAML = "compute_logs:\\n  module: dagster._core.storage.local_compute_log_manager"
import dagster, dagster_pandera
from dagster import AssetKey
NAME = "my_dagster._core is not dagster's"
"""
    assert private_dagster_uses(source) == [
        "line 2: import dagster._core.storage",
        "line 3: from dagster._serdes import ...",
        "line 4: from dagster import ...",
        "line 5: string 'dagster._utils'",
        "line 6: string 'compute_logs:\\n  module: dagster._core.storage.local_compute_'",
    ]


def test_only_the_database_generator_turns_sqlites_syncing_off(tmp_path: Path) -> None:
    assert durability_offences(ROOT / PACKAGE) == []
    assert _UNSYNCED.search((ROOT / PACKAGE / UNSYNCED_ALLOWED[0]).read_text(encoding="utf-8")), "the rule sees it"
    (tmp_path / "etimad_db").mkdir()
    (tmp_path / "etimad_db" / "generator.py").write_text('con.execute("PRAGMA synchronous = OFF")\n')
    (tmp_path / "storage.py").write_text('connection.execute("PRAGMA synchronous=OFF")\n')
    (tmp_path / "other.py").write_text('connection.execute("pragma SYNCHRONOUS = 0")\n')
    (tmp_path / "fine.py").write_text('connection.execute("PRAGMA synchronous=NORMAL")\n')
    assert durability_offences(tmp_path) == ["other.py", "storage.py"]


# Modules that start processes or call C by hand; os functions that fork.
NO_PROCESSES = ("ctypes", "_ctypes")
# A process pool is stock concurrent.futures on a forkserver or spawn context, never a fork.
START_METHODS = {"forkserver", "spawn"}
NO_MULTIPROCESSING = ("Process", "Pool", "set_start_method")
NO_FORK = ("fork", "forkpty", "register_at_fork")
# A PNG is written by Pillow (savefig), not chunk by chunk.
PNG_CHUNKS = (b"IHDR", b"IDAT", b"IEND")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _start_methods(node: ast.expr) -> set:
    """The start methods an argument can name: its constants (a conditional's two branches)."""
    if isinstance(node, ast.IfExp):
        return _start_methods(node.body) | _start_methods(node.orelse)
    return {node.value} if isinstance(node, ast.Constant) else {None}


def stock_library_offences(source: str) -> list[str]:
    """What ``source`` does of: a private matplotlib name (imported, read as an attribute of a
    matplotlib module or class, through getattr & co, or defined in a subclass of a matplotlib
    class), a fork (``os``'s fork functions, ``multiprocessing``'s processes and pools, a
    ``ProcessPoolExecutor`` not on a forkserver or spawn context),
    ``ctypes``, or PNG chunks of its own (the chunk names as bytes)."""
    tree = ast.parse(source)
    found: list[str] = []
    mpl: set[str] = set()  # local names bound to matplotlib modules and objects
    os_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in NO_PROCESSES:
                    found.append(f"import {alias.name}")
                if top == "matplotlib":
                    if any(map(_private, alias.name.split("."))):
                        found.append(f"import {alias.name}")
                    mpl.add(alias.asname or top)
                if alias.name == "os":
                    os_names.add(alias.asname or "os")
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            top = node.module.split(".")[0]
            names = [alias.name for alias in node.names]
            if top in NO_PROCESSES:
                found.append(f"from {node.module} import")
            if top == "multiprocessing" and set(names) & set(NO_MULTIPROCESSING):
                found.append(f"from {node.module} import {', '.join(names)}")
            if node.module == "os":
                found += [f"from os import {name}" for name in names if name in NO_FORK]
            if top == "matplotlib":
                if any(map(_private, node.module.split("."))) or any(map(_private, names)):
                    found.append(f"from {node.module} import {', '.join(names)}")
                mpl |= {alias.asname or alias.name for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, root = [node.attr], node.value
            while isinstance(root, ast.Attribute):
                chain.append(root.attr)
                root = root.value
            if isinstance(root, ast.Name):
                if root.id in mpl and any(map(_private, chain)):
                    found.append(f"{root.id}.{'.'.join(reversed(chain))}")
                if root.id in os_names and node.attr in NO_FORK:
                    found.append(f"{root.id}.{node.attr}")
                if root.id == "multiprocessing" and node.attr in NO_MULTIPROCESSING:
                    found.append(f"multiprocessing.{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[0], ast.Name) and node.args[0].id in mpl
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value)):
            found.append(f"{node.func.id}({node.args[0].id}, {node.args[1].value!r})")
        elif isinstance(node, ast.ClassDef) and any(isinstance(base, ast.Name) and base.id in mpl for base in node.bases):
            found += [f"{node.name}.{item.name}: a private method in a matplotlib subclass" for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(item.name)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes) and any(
                chunk in node.value for chunk in PNG_CHUNKS):
            found.append(f"PNG bytes {node.value[:8]!r}")
        if isinstance(node, ast.Call):
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            keywords = {keyword.arg for keyword in node.keywords}
            if callee == "ProcessPoolExecutor" and "mp_context" not in keywords:
                found.append("ProcessPoolExecutor without a forkserver or spawn mp_context")
            if callee == "get_context" and not (node.args and _start_methods(node.args[0]) <= START_METHODS):
                found.append("get_context of a start method other than forkserver or spawn")
    return found


def test_the_package_uses_stock_libraries_only_and_never_forks() -> None:
    offences = {name: found for name, path in MODULES.items()
                if (found := stock_library_offences(path.read_text(encoding="utf-8")))}
    assert offences == {}


def test_the_stock_library_rule_catches_offences() -> None:
    source = '''
import ctypes
import multiprocessing
import os as system
import matplotlib as mpl
import matplotlib._api
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import Pool, get_context
from os import register_at_fork
from matplotlib import _pylab_helpers, text as mpl_text
from matplotlib.backends.backend_agg import RendererAgg, backend_agg

system.fork()
multiprocessing.Process(target=print)
ProcessPoolExecutor(2)
ProcessPoolExecutor(2, mp_context=get_context("spawn"))  # stock, no fork
get_context("forkserver" if fast else "spawn")  # stock
get_context("fork")
mpl.__version__, mpl.rcParams  # public
mpl_text._get_text_metrics_with_cache
backend_agg._RendererAgg
getattr(mpl_text, "_get_text_metrics_with_cache")
getattr(mpl_text, "Text")  # public

class Renderer(RendererAgg):
    def draw_text(self): ...  # public
    def _prepare_font(self): ...

handle.write(b"IHDR" + header)
'''
    assert sorted(stock_library_offences(source)) == sorted([
        "import ctypes",
        "import matplotlib._api",
        "from multiprocessing import Pool, get_context",
        "multiprocessing.Process",
        "ProcessPoolExecutor without a forkserver or spawn mp_context",
        "get_context of a start method other than forkserver or spawn",
        "from os import register_at_fork",
        "from matplotlib import _pylab_helpers, text",
        "system.fork",
        "mpl_text._get_text_metrics_with_cache",
        "backend_agg._RendererAgg",
        "getattr(mpl_text, '_get_text_metrics_with_cache')",
        "Renderer._prepare_font: a private method in a matplotlib subclass",
        "PNG bytes b'IHDR'",
    ])


# An import name that is not its distribution's name on PyPI.
DISTRIBUTION_OF = {"PIL": "pillow", "yaml": "pyyaml", "dagster_pandera": "dagster-pandera",
                   "dateutil": "python-dateutil"}


def declared_distributions() -> set[str]:
    """The distributions pyproject.toml's [project] dependencies name, lower-case."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower() for requirement in project["dependencies"]}


def test_the_package_declares_every_library_it_imports() -> None:
    """A fresh install has what the package imports: each third-party import is a dependency of
    its own, not something another dependency happens to bring."""
    import sys

    known = set(modules_under(ROOT / PACKAGE))
    imported = {name.split(".")[0] for path in (ROOT / PACKAGE).rglob("*.py")
                for name in imported_names(path, module_name(path, ROOT), known)}
    third_party = {name for name in imported if name and name != PACKAGE and name not in sys.stdlib_module_names}
    missing = {name for name in third_party
               if DISTRIBUTION_OF.get(name, name).lower().replace("_", "-") not in declared_distributions()}
    assert not missing, f"imported but not declared in pyproject.toml: {sorted(missing)}"
