"""pygpu's public API as a list: the modules a user imports and the names each exports, less the
objects NumPy owns that pygpu re-exports (pygpu.float32, pygpu.dtype, pygpu.s_: NumPy documents
them). The API reference (docs/_ext/api_pages.py) and the docstring coverage test
(tests/test_docstrings.py) walk the same list."""
import importlib
import types

MODULES = ("pygpu", "pygpu.linalg", "pygpu.fft", "pygpu.random", "pygpu.emath", "pygpu.polynomial", "pygpu.cuda",
           "pygpu.cuda.runtime",
           "pygpu.dask")


def is_numpy_object(obj, name=None):
    """NumPy's own: defined in numpy, or NumPy's object of that name itself (pygpu.typecodes)."""
    if (getattr(obj, "__module__", None) or "").split(".")[0] == "numpy":
        return True
    import numpy
    return name is not None and not callable(obj) and getattr(numpy, name, None) is obj


def public_names(module, numpy_objects=False):
    """(name, object) pairs of a module's public names (its __all__, else those without a leading
    underscore), submodules left out; NumPy's own objects only with numpy_objects=True."""
    if isinstance(module, str):
        module = importlib.import_module(module)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in sorted(set(names), key=lambda n: (n.lower(), n)):
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType) or (is_numpy_object(obj, name) and not numpy_objects):
            continue
        yield name, obj
