"""Test-only shim: cupy.testing imports cupyx.scipy.sparse; pygpu has no sparse arrays."""
import contextlib


@contextlib.contextmanager
def allow_synchronize(allow):
    """CuPy's guard against device synchronisation: no-op here (pygpu has no such switch)."""
    yield
