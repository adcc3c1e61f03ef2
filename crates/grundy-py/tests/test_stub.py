"""The type stub `_grundy.pyi` against the native module it describes: every
name the module exports is declared, and every public attribute and method
of its classes, so that a type checker sees what the package has."""

import ast
import pathlib

import grundy
import grundy._grundy as native


def stub_tree():
    return ast.parse(pathlib.Path(grundy.__file__).with_name("_grundy.pyi").read_text())


def public(names):
    return {name for name in names if not name.startswith("_")}


def test_the_stub_declares_every_name_of_the_native_module():
    declared = set()
    for node in stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    assert public(dir(native)) - declared == set()


def test_the_stub_declares_every_attribute_of_the_native_classes():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef) or not hasattr(native, node.name):
            continue
        declared = set()
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                declared.add(item.name)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                declared.add(item.target.id)
        actual = public(dir(getattr(native, node.name)))
        assert actual - declared == set(), node.name


def test_the_stubs_parameters_are_the_runtimes():
    """Every function and method the stub declares takes the parameters it
    says, by name (a call by keyword, ``a.after(move=m)``, works as the
    stub promises), where the runtime tells its signature."""
    import inspect

    def stub_names(func):
        args = func.args
        return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]

    def runtime_names(obj):
        try:
            params = inspect.signature(obj).parameters.values()
        except (TypeError, ValueError):
            return None
        return [p.name for p in params if p.name != "self"]

    checked = 0
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef) and hasattr(native, node.name):
            pairs = [(node, getattr(native, node.name))]
        elif isinstance(node, ast.ClassDef) and hasattr(native, node.name):
            cls = getattr(native, node.name)
            pairs = [
                (item, getattr(cls, item.name))
                for item in node.body
                if isinstance(item, ast.FunctionDef)
                and not item.name.startswith("__")
                and hasattr(cls, item.name)
                and not any(
                    isinstance(d, ast.Name) and d.id in ("property", "staticmethod", "classmethod")
                    for d in item.decorator_list
                )
            ]
        else:
            continue
        for func, obj in pairs:
            names = runtime_names(obj)
            if names is None:
                continue
            assert stub_names(func) == names, f"{node.name}.{func.name}" if func is not node else node.name
            checked += 1
    assert checked > 20
