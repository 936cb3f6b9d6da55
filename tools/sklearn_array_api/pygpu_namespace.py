"""pytest plugin: scikit-learn's array API tests with pygpu as one more namespace."""
import sklearn.utils._array_api as _api

_original = _api.yield_namespaces


def yield_namespaces(include_numpy_namespaces=True):
    yield from _original(include_numpy_namespaces=include_numpy_namespaces)
    yield "pygpu"


_api.yield_namespaces = yield_namespaces
