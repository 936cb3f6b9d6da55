"""NumPy's public names against pygpu's (issue 19): what pygpu leaves out on purpose, with the
reason, and what it does not have yet. tests/test_numpy_namespace.py checks both lists against
the installed NumPy and pygpu; tools/numpy_coverage.py turns them into docs/numpy_coverage.md."""
import numpy as np

import pygpu

# name -> why pygpu does not have it
EXCLUDED = {}
for _names, _why in (
    ("core f2py ctypeslib testing typing test show_runtime get_include info",
     "NumPy's own packaging, build and test tooling"),
    ("char strings rec recarray record", "string and record arrays: pygpu arrays hold numbers"),
    ("ma", "masked arrays: not a pygpu array type"),
    ("matrix asmatrix bmat", "numpy.matrix, which NumPy itself discourages"),
    ("memmap fromregex", "files: read or write with NumPy on the host, then pygpu.asarray / pygpu.asnumpy"),
    ("complex256 float128", "extended precision: no GPU computes in it"),
    ("busday_count busday_offset busdaycalendar is_busday datetime_as_string datetime_data",
     "dates and times: pygpu arrays hold numbers"),
    ("setbufsize getbufsize", "ufunc buffers: pygpu's kernels do not buffer"),
    ("nditer nested_iters flatiter ndenumerate broadcast",
     "iterators over elements in host memory: index pygpu arrays, or iterate pygpu.asnumpy(x)"),
    ("frompyfunc", "ufuncs of Python objects: use pygpu.vectorize, which compiles the function"),
):
    EXCLUDED.update(dict.fromkeys(_names.split(), _why))

# not there yet (issue 19, and fft: issue 21); a name that lands must leave this list
NOT_YET = set()

# name -> what differs from NumPy's, for names pygpu has (shown in docs/numpy_coverage.md)
NOTES = {}
NOTES.update(dict.fromkeys(
    "errstate seterr geterr seterrcall geterrcall".split(),
    "NumPy's error state, but pygpu's kernels never detect floating-point errors (IEEE results, no "
    "warnings), so the modes 'raise' and 'call' raise NotImplementedError"))

LINALG_EXCLUDED = {"test": "NumPy's test tooling"}

RANDOM_EXCLUDED = {"test": "NumPy's test tooling", "mtrand": "the legacy module's implementation module",
                   "bit_generator": "the module of NumPy's BitGenerator base class"}
RANDOM_EXCLUDED.update(dict.fromkeys(
    "BitGenerator MT19937 PCG64 PCG64DXSM Philox SFC64".split(),
    "NumPy's host bit generators: pygpu's stream is Philox4x32 (pygpu.random.Philox4x32), the same on every device"))
RANDOM_NOT_YET = set()

GENERATOR_NOT_YET = set()

NDARRAY_EXCLUDED = {"ctypes": "a ctypes view of host memory", "data": "a buffer of host memory",
                    "getfield": "record arrays",
                    "setfield": "record arrays", "resize": "in-place reallocation with reference checks",
                    "byteswap": "byte order: pygpu "
                    "arrays are in the machine's order"}
NDARRAY_NOT_YET = set()


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def namespaces():
    """(title, NumPy's names, pygpu's names, excluded {name: why}, not yet {names}) per namespace."""
    gen_np, gen_pg = np.random.Generator, type(pygpu.random.default_rng(0))
    return [
        ("numpy", public(np), public(pygpu), EXCLUDED, NOT_YET),
        ("numpy.linalg", public(np.linalg), public(pygpu.linalg), LINALG_EXCLUDED, set()),
        ("numpy.random", public(np.random), public(pygpu.random), RANDOM_EXCLUDED, RANDOM_NOT_YET),
        ("numpy.random.Generator", public(gen_np), public(gen_pg), {}, GENERATOR_NOT_YET),
        ("numpy.ndarray", public(np.ndarray), public(pygpu.ndarray), NDARRAY_EXCLUDED, NDARRAY_NOT_YET),
    ]
