"""Registers pygpu with Dask without the user asking and without importing Dask: when dask.array
or distributed is imported already, at once; otherwise right after the first of them is (a
finder on sys.meta_path that wraps that module's loader, then leaves). A distributed worker
thus reads pygpu chunks whichever module it imported first. pygpu.dask does the registering."""
import importlib.abc
import importlib.util
import sys


def _register():
    try:
        import pygpu.dask  # noqa: F401
    except ImportError:
        pass   # a Dask too old or without its array extra: nothing to register with


_TRIGGERS = ("dask.array", "distributed")


class _AfterDaskArray(importlib.abc.MetaPathFinder):
    """Finds dask.array (or distributed) with the other finders, and runs _register after it is
    executed."""

    def find_spec(self, name, path=None, target=None):
        if name not in _TRIGGERS:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        run = loader.exec_module

        class _Loader(importlib.abc.Loader):
            def __getattr__(self, attr):   # everything else (resources, source) as the real loader
                return getattr(loader, attr)

            def create_module(self, s):
                return loader.create_module(s)

            def exec_module(self, module):
                run(module)
                _register()

        spec.loader = _Loader()
        return spec


def install():
    if any(name in sys.modules for name in _TRIGGERS):
        _register()
    elif not any(isinstance(f, _AfterDaskArray) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterDaskArray())
