"""The hand-written stubs of noughts._core must name everything the extension exports."""

import ast
import pathlib

import noughts
from noughts import _core

STUB = pathlib.Path(noughts.__file__).with_name("_core.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    classes, functions = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            names |= {
                t.id for n in node.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
            }
            names |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in classes:
                    names |= classes[base.id]
            classes[node.name] = names
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
    return classes, functions


def public(obj):
    return {n for n in vars(obj) if not n.startswith("__") or n in ("__eq__", "__hash__")} - {"__module__", "__doc__"}


def test_stubs_cover_the_extension():
    classes, functions = stub_names()
    for name, obj in vars(_core).items():
        if name.startswith("__"):
            continue
        if isinstance(obj, type):
            assert name in classes, f"class {name} missing from _core.pyi"
            if issubclass(obj, int):  # enums: their members
                assert {m.name for m in obj} <= classes[name], name
            else:
                missing = public(obj) - classes[name] - {"_pybind11_conduit_v1_", "__init__"}
                assert not missing, f"{name}: {sorted(missing)} missing from _core.pyi"
        elif callable(obj):
            assert name in functions, f"function {name} missing from _core.pyi"
