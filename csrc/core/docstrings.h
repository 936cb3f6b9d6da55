/* NumPy-style docstrings of the module functions users meet first (help(), Jupyter's Shift-Tab and
 * the API reference of docs/ show them); each is included by the file whose method table
 * names the function. The first line, up to "--", is the text signature inspect reads. */
#ifndef PG_DOCSTRINGS_H
#define PG_DOCSTRINGS_H

/* empty, zeros, ones, full: one text, their summary, extra parameter, result and notes put in */
#define PG_DOC_SHAPED(NAME, FILL_SIG, SUMMARY, FILL_PARAM, FILL_DTYPE, RETURNS, SEE, NOTE) \
    NAME "($module, shape, " FILL_SIG "dtype=None, order='C', device=None)\n" \
    "--\n" \
    "\n" \
    SUMMARY "\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "shape : int or tuple of ints\n" \
    "    The shape of the new array.\n" \
    FILL_PARAM \
    "dtype : dtype, optional\n" \
    "    Its element type: float64 when absent" FILL_DTYPE ". Any of bool, int8 to int64, uint8 to\n" \
    "    uint64, float16, float32, float64, complex64, complex128 (a numpy.dtype, a type or a\n" \
    "    string).\n" \
    "order : {'C', 'F'}, optional\n" \
    "    Row-major (C) or column-major (Fortran) layout of the memory.\n" \
    "device : Device, str or int, optional\n" \
    "    Where the array lives: ``'cpu'``, ``'cuda:0'``, ``0`` or a Device. The current device\n" \
    "    when absent (the innermost ``with device:`` block, else the default device).\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    " RETURNS "\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    SEE "\n" \
    "\n" \
    "Notes\n" \
    "-----\n" \
    "As ``numpy." NAME "`` with a ``device`` argument. " NOTE

#define PG_DOC_EMPTY PG_DOC_SHAPED("empty", "", "A new array without initialising its elements.", "", "", \
                                   "Uninitialised memory: read nothing before you write it.", "empty_like, zeros", \
                                   "The memory comes from the device's caching pool: no kernel runs.")
#define PG_DOC_ZEROS PG_DOC_SHAPED("zeros", "", "A new array of zeros.", "", "", "An array of zeros.", \
                                   "zeros_like, ones, full, empty", \
                                   "The memory is cleared on the device, with no host data copied.")
#define PG_DOC_ONES PG_DOC_SHAPED("ones", "", "A new array of ones.", "", "", "An array of ones.", \
                                  "ones_like, zeros, full", "The values are written on the device.")
#define PG_DOC_FULL PG_DOC_SHAPED("full", "fill_value, ", "A new array with every element equal to fill_value.", \
                                  "fill_value : scalar or array_like\n" \
                                  "    The value (a scalar, or an array broadcast to ``shape``).\n", \
                                  " (then fill_value's, by NumPy's rules)", "An array of fill_value.", \
                                  "full_like, zeros, ones", "The values are written on the device.")

/* the *_like functions: one text, their summary, extra parameter and result put in */
#define PG_DOC_LIKE(NAME, FILL_SIG, SUMMARY, FILL_PARAM, RETURNS) \
    NAME "($module, a, " FILL_SIG "dtype=None, order='K', shape=None, device=None)\n" \
    "--\n" \
    "\n" \
    SUMMARY "\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "a : array_like\n" \
    "    The array whose shape, dtype, layout and device the result takes (a pygpu array, a NumPy\n" \
    "    array, anything ``asarray`` accepts).\n" \
    FILL_PARAM \
    "dtype : dtype, optional\n" \
    "    Overrides the element type.\n" \
    "order : {'K', 'A', 'C', 'F'}, optional\n" \
    "    The layout: ``'K'`` keeps ``a``'s as closely as it can, ``'A'`` is Fortran when ``a``\n" \
    "    is, ``'C'`` and ``'F'`` force one.\n" \
    "shape : int or tuple of ints, optional\n" \
    "    Overrides the shape.\n" \
    "device : Device, str or int, optional\n" \
    "    Overrides the device: ``a``'s when ``a`` is a pygpu array, else the current device.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    " RETURNS "\n" \
    "\n" \
    "Notes\n" \
    "-----\n" \
    "As ``numpy." NAME "`` with a ``device`` argument."

#define PG_DOC_EMPTY_LIKE PG_DOC_LIKE("empty_like", "", "A new array like ``a``, its elements not initialised.", "", \
                                      "Uninitialised memory of a's shape, dtype and device.")
#define PG_DOC_ZEROS_LIKE PG_DOC_LIKE("zeros_like", "", "A new array of zeros like ``a``.", "", \
                                      "Zeros of a's shape, dtype and device.")
#define PG_DOC_ONES_LIKE PG_DOC_LIKE("ones_like", "", "A new array of ones like ``a``.", "", \
                                     "Ones of a's shape, dtype and device.")
#define PG_DOC_FULL_LIKE PG_DOC_LIKE("full_like", "fill_value, ", \
                                     "A new array like ``a`` with every element equal to fill_value.", \
                                     "fill_value : scalar or array_like\n" \
                                     "    The value, broadcast to the shape.\n", \
                                     "fill_value in a's shape, dtype and device.")

#define PG_DOC_ASARRAY \
    "asarray($module, obj, dtype=None, device=None, copy=None, order='K')\n" \
    "--\n" \
    "\n" \
    "A pygpu array from any array-like object, without a copy where none is needed.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "obj : array_like\n" \
    "    A pygpu array, a NumPy array of any layout, nested lists or tuples, a Python or NumPy\n" \
    "    scalar, or an object with ``__cuda_array_interface__`` (CuPy, Numba, PyTorch on a GPU)\n" \
    "    or ``__dlpack__``.\n" \
    "dtype : dtype, optional\n" \
    "    The element type; inferred from ``obj`` as NumPy does when absent.\n" \
    "device : Device, str or int, optional\n" \
    "    Where the result lives; ``obj``'s device for pygpu arrays, else the current device.\n" \
    "copy : bool or None, optional\n" \
    "    ``None`` (the default) copies only when it must (another device, another dtype, host\n" \
    "    data); ``True`` always copies; ``False`` raises ``ValueError`` when a copy is needed.\n" \
    "order : {'K', 'A', 'C', 'F'}, optional\n" \
    "    The layout of a copy.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    ``obj`` itself when it already is a pygpu array on the device with that dtype.\n" \
    "\n" \
    "Notes\n" \
    "-----\n" \
    "Host data (NumPy arrays, lists) is always copied to the device, the CPU device included, so\n" \
    "code behaves the same with and without a GPU; ``from_dlpack`` shares host memory instead.\n" \
    "Objects exposing ``__cuda_array_interface__`` or ``__dlpack__`` on the device are imported\n" \
    "zero-copy and kept alive by the result. Memory imported this way must be aligned to its element\n" \
    "type: a misaligned pointer or stride raises ``ValueError``.\n" \
    "\n" \
    "Examples\n" \
    "--------\n" \
    ">>> import numpy as np, pygpu\n" \
    ">>> d = pygpu.asarray(np.arange(4.0))              # host -> current device\n" \
    ">>> pygpu.asarray(d) is d\n" \
    "True\n" \
    ">>> pygpu.asarray([[1, 2], [3, 4]], dtype=np.float32).shape\n" \
    "(2, 2)"

#define PG_DOC_ARANGE \
    "arange($module, start, stop=None, step=None, dtype=None, *, device=None)\n" \
    "--\n" \
    "\n" \
    "Evenly spaced values in [start, stop), computed on the device.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "start : number\n" \
    "    The first value; with no ``stop``, the end (and the range starts at 0).\n" \
    "stop : number, optional\n" \
    "    The end, not included.\n" \
    "step : number, optional\n" \
    "    The spacing, 1 by default; may be negative, not zero.\n" \
    "dtype : dtype, optional\n" \
    "    Inferred from the arguments as NumPy does (int64 for ints, float64 for floats).\n" \
    "device : Device, str or int, optional\n" \
    "    Where the array lives; the current device when absent.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    1-d, of ``ceil((stop - start) / step)`` elements (NumPy's length rule and values).\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "linspace : a number of samples rather than a step, better for float ranges."

#define PG_DOC_SORT \
    "sort($module, a, axis=-1, kind=None, order=None, *, stable=None, descending=False)\n" \
    "--\n" \
    "\n" \
    "A sorted copy of an array.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "a : array_like\n" \
    "    The array.\n" \
    "axis : int or None, optional\n" \
    "    The axis to sort along (the last by default); ``None`` sorts the flattened array.\n" \
    "kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional\n" \
    "    Accepted for NumPy's sake: every sort is stable (a radix sort of the keys).\n" \
    "order : None\n" \
    "    Structured dtypes are not supported; must be None.\n" \
    "stable : bool, optional\n" \
    "    The array API's flag; every sort is stable.\n" \
    "descending : bool, optional\n" \
    "    Largest first (the array API's), still stable: equal elements keep their order.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    Same shape and dtype as ``a``, on its device.\n" \
    "\n" \
    "Notes\n" \
    "-----\n" \
    "NaNs sort last (first with ``descending``), complex numbers by real then imaginary part, as\n" \
    "NumPy. On a GPU, CUB's onesweep radix sort; on the CPU, a radix sort of the same keys.\n" \
    "``ndarray.sort`` sorts in place.\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "argsort, partition, searchsorted"

#define PG_DOC_ARGSORT \
    "argsort($module, a, axis=-1, kind=None, order=None, *, stable=None, descending=False)\n" \
    "--\n" \
    "\n" \
    "The indices that sort an array along an axis.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "a : array_like\n" \
    "    The array.\n" \
    "axis : int or None, optional\n" \
    "    The axis (the last by default); ``None``: indices into the flattened array.\n" \
    "kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional\n" \
    "    Accepted for NumPy's sake: every sort is stable.\n" \
    "order : None\n" \
    "    Structured dtypes are not supported; must be None.\n" \
    "stable : bool, optional\n" \
    "    The array API's flag; every sort is stable.\n" \
    "descending : bool, optional\n" \
    "    Indices of the largest first; equal elements keep their order.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    int64 indices of ``a``'s shape: ``take_along_axis(a, argsort(a, axis), axis)`` is sorted.\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "sort, take_along_axis"

#define PG_DOC_MATMUL \
    "matmul($module, x1, x2, /, out=None, *, casting='same_kind', order='K', dtype=None, subok=True)\n" \
    "--\n" \
    "\n" \
    "The matrix product of two arrays, with NumPy's rules.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "x1, x2 : array_like\n" \
    "    The operands. 1-d operands are promoted to matrices (a row for x1, a column for x2) and the\n" \
    "    added dimension removed from the result; dimensions before the last two broadcast as a\n" \
    "    batch.\n" \
    "out : ndarray, optional\n" \
    "    Where the result goes (the right shape and a dtype the result casts to).\n" \
    "casting, order, dtype, subok\n" \
    "    As NumPy's ufunc arguments; ``dtype`` sets the type the product is computed in.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    On the operands' device. Scalars are refused (``ValueError``), as NumPy's matmul does.\n" \
    "\n" \
    "Notes\n" \
    "-----\n" \
    "Float and complex products are cuBLAS's GEMM on a GPU and a blocked, vectorised GEMM on the CPU;\n" \
    "integer and bool products are pygpu's own kernels. The ``@`` operator is this function.\n" \
    "``pygpu.set_matmul_precision('tf32')`` lets float32 and complex64 products use TensorFloat-32\n" \
    "tensor cores on GPUs that have them (exact float32 by default).\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "dot, vecdot, tensordot, einsum"

#define PG_DOC_WHERE \
    "where(condition, x, y), or where(condition)\n" \
    "\n" \
    "Elements chosen from ``x`` where ``condition`` is true, from ``y`` elsewhere.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "condition : array_like\n" \
    "    Truth values (any dtype: nonzero is true).\n" \
    "x, y : array_like, optional\n" \
    "    The values; ``condition``, ``x`` and ``y`` broadcast together. Give both or neither.\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray or tuple of ndarrays\n" \
    "    With ``x`` and ``y``: an array of their promoted dtype (NEP 50) and the broadcast shape.\n" \
    "    With ``condition`` alone: ``nonzero(condition)``, a tuple of int64 index arrays."

#define PG_DOC_CONCATENATE \
    "concatenate($module, arrays, /, axis=0, out=None, *, dtype=None, casting='same_kind')\n" \
    "--\n" \
    "\n" \
    "Arrays joined along an existing axis.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "arrays : sequence of array_like\n" \
    "    Arrays of the same shape except along ``axis``: pygpu arrays, NumPy arrays, lists.\n" \
    "axis : int or None, optional\n" \
    "    The axis (0 by default); ``None`` flattens each array first.\n" \
    "out : ndarray, optional\n" \
    "    Where the result goes.\n" \
    "dtype : dtype, optional\n" \
    "    The result's dtype; the arrays' promoted dtype by default.\n" \
    "casting : str, optional\n" \
    "    NumPy's rule for casting the inputs to it (``'same_kind'``).\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    On the device of the pygpu arrays among ``arrays`` (host data is copied there).\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "stack, hstack, vstack, split"

#define PG_DOC_STACK \
    "stack($module, arrays, axis=0, out=None, *, dtype=None, casting='same_kind')\n" \
    "--\n" \
    "\n" \
    "Arrays of one shape joined along a new axis.\n" \
    "\n" \
    "Parameters\n" \
    "----------\n" \
    "arrays : sequence of array_like\n" \
    "    Arrays of the same shape.\n" \
    "axis : int, optional\n" \
    "    Where the new axis goes in the result (0 by default).\n" \
    "out : ndarray, optional\n" \
    "    Where the result goes.\n" \
    "dtype : dtype, optional\n" \
    "    The result's dtype; the arrays' promoted dtype by default.\n" \
    "casting : str, optional\n" \
    "    NumPy's rule for casting the inputs to it (``'same_kind'``).\n" \
    "\n" \
    "Returns\n" \
    "-------\n" \
    "ndarray\n" \
    "    One dimension more than the inputs.\n" \
    "\n" \
    "See Also\n" \
    "--------\n" \
    "concatenate, hstack, vstack"

#endif
