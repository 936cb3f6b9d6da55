"""Docstring coverage: every public name of pygpu's modules, and every public method of its
classes, has a docstring of its own and (functions, ufuncs, classes) a signature that
inspect.signature reads, so help(), Jupyter's Shift-Tab and the API reference (docs/, built by
Sphinx from these docstrings) show something for each. NumPy's own objects that pygpu re-exports
(pygpu.float32, pygpu.dtype, pygpu.s_, ...) carry NumPy's documentation and are left out."""
import importlib
import inspect

import pytest

import pygpu
from pygpu._public import MODULES, public_names

CLASSES = ["ndarray", "Device", "Stream", "Event", "ufunc", "MemoryPool", "random.Generator", "random.RandomState",
           "random.Philox4x32", "RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel"]
# no signature on purpose, each with its reason
NO_SIGNATURE = {
    "pygpu.where": "where(condition) and where(condition, x, y) are two calls no one Python signature spells "
                   "(NumPy's has none either)",
}


def own_doc(obj):
    """The object's docstring when it is its own: not its class's, not type's or object's."""
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if not isinstance(obj, type) and not callable(getattr(type(obj), "__get__", None)) and doc is type(obj).__doc__:
        return None
    if isinstance(obj, type) and doc in (type.__doc__, object.__doc__):
        return None
    return doc


def is_exception(obj):
    return isinstance(obj, type) and issubclass(obj, BaseException)


def load(name):
    if name == "pygpu.dask":
        pytest.importorskip("dask.array")
    return importlib.import_module(name)


@pytest.mark.parametrize("modname", MODULES)
def test_public_names_have_docstrings_and_signatures(modname):
    module = load(modname)
    undocumented, unsigned = [], []
    for name, obj in public_names(module):
        if not callable(obj):
            continue
        qualified = "%s.%s" % (modname, name)
        if own_doc(obj) is None:
            undocumented.append(qualified)
        if is_exception(obj) or qualified in NO_SIGNATURE:   # exceptions: as Python's own, no signature
            continue
        try:
            inspect.signature(obj)
        except (TypeError, ValueError):
            unsigned.append(qualified)
    assert not undocumented, "public names without a docstring of their own: %s" % undocumented
    assert not unsigned, "public callables without a signature: %s" % unsigned


@pytest.mark.parametrize("path", CLASSES)
def test_public_methods_have_docstrings(path):
    cls = pygpu
    for part in path.split("."):
        cls = getattr(cls, part)
    missing = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name)
        if type(attr).__name__ in ("member_descriptor",) or isinstance(attr, (int, float, str, tuple)):
            continue
        if not getattr(attr, "__doc__", None) and not getattr(getattr(cls, name), "__doc__", None):
            missing.append(name)
    assert not missing, "%s: methods and properties without a docstring: %s" % (path, missing)


def test_signatures_spell_the_calls():
    """Spot checks that the signatures say what the calls take (C functions, ufuncs, C types)."""
    sig = lambda f: str(inspect.signature(f))  # noqa: E731
    assert sig(pygpu.zeros) == "(shape, dtype=None, order='C', device=None)"
    assert "descending=False" in sig(pygpu.sort)
    assert sig(pygpu.sin) == "(x, /, out=None, *, dtype=None, casting='same_kind')"
    assert sig(pygpu.arctan2) == "(x1, x2, /, out=None, *, dtype=None, casting='same_kind')"
    assert sig(pygpu.Device) == "(device=None)"
    assert sig(pygpu.Stream) == sig(pygpu.cuda.Stream) == "(device=None, *, null=False, non_blocking=False)"
    assert sig(pygpu.ndarray.astype) == "(self, /, dtype, order='K', casting='unsafe', copy=True)"
    assert sig(pygpu.ndarray.to_device) == "(self, /, device, *, stream=None)"   # the array API's, checked by its suite
    x = pygpu.arange(3.0, device="cpu")
    # each signature's keywords are accepted by the call
    pygpu.sin(x, out=pygpu.empty(3, device="cpu"), dtype="float64", casting="same_kind")
    x.astype(dtype="float32", order="K", casting="unsafe", copy=True)
    x.to_device(device="cpu", stream=None)
    pygpu.Stream(device="cpu", null=False, non_blocking=False)


def test_ufunc_docstrings_name_their_function():
    for name in ("sin", "add", "arctan2", "logical_not", "remainder"):
        f = getattr(pygpu, name)
        assert f.__doc__.startswith(f.__name__ + "("), f.__doc__[:80]
        assert "Parameters" in f.__doc__ and "numpy." + f.__name__ in f.__doc__
    # a ufunc made by vectorize keeps its Python function's docstring
    def scaled(x):
        """Doubles x."""
        return 2 * x
    assert pygpu.vectorize(["float64(float64)"])(scaled).__doc__ == "Doubles x."


def test_kernel_only_names_say_where_they_belong():
    from pygpu import cuda
    assert "inside a @cuda.jit kernel" in cuda.syncthreads.__doc__
    assert cuda.float32x4.__doc__.startswith("cuda.float32x4(x, y, z, w)")
    with pytest.raises(TypeError, match="only available inside a @cuda.jit kernel"):
        cuda.syncthreads()


def _docstring_examples():
    import doctest
    parser = doctest.DocTestParser()
    for modname in MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for name, obj in public_names(module):
            doc = own_doc(obj)
            if doc and ">>>" in doc:
                yield parser.get_doctest(doc, {}, "%s.%s" % (modname, name), None, 0)


@pytest.mark.parametrize("test", list(_docstring_examples()), ids=lambda t: t.name)
def test_docstring_examples_run(test):
    """The Examples sections of the docstrings give the output they show."""
    import doctest
    import numpy as np
    test.globs.update({"np": np, "pygpu": pygpu})
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
