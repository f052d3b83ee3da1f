"""The dependency direction ``engine <- protocol <- services``, checked by parsing imports."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"engine", "protocol", "services"}
# What each layer may import from the project; the standard library is always allowed.
ALLOWED = {
    "engine": {"engine"},
    "protocol": {"engine", "protocol"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def layer_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    files = layer_files(layer)
    assert files, f"no Python files under {layer}/"
    for path in files:
        for root in imported_roots(path):
            if root in FIRST_PARTY:
                assert root in ALLOWED[layer], f"{path.relative_to(ROOT)} imports {root}"
            else:
                assert root in sys.stdlib_module_names or root == "__future__", (
                    f"{path.relative_to(ROOT)} imports {root}: {layer}/ is standard library only"
                )


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import services.tables\nfrom flask import Flask\nfrom . import x\n")
    assert imported_roots(sample) == {"services", "flask"}
