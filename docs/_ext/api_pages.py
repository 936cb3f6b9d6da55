"""The API reference, written when the build starts: a page per public module (a summary table
of its names by kind) and a page per name (autodoc of its docstring and signature), from the
same list of public names the docstring test walks (pygpu._public). Nothing here is committed:
the pages follow the package as it is."""
import inspect
import os
import re

import pygpu
from pygpu._public import MODULES, is_numpy_object, public_names

TITLES = {
    "pygpu": "pygpu: arrays, math and kernels",
    "pygpu.linalg": "pygpu.linalg: linear algebra",
    "pygpu.fft": "pygpu.fft: discrete Fourier transforms",
    "pygpu.random": "pygpu.random: random numbers",
    "pygpu.emath": "pygpu.emath: math with complex results",
    "pygpu.polynomial": "pygpu.polynomial: polynomial series",
    "pygpu.cuda": "pygpu.cuda: Numba's CUDA API",
    "pygpu.cuda.runtime": "pygpu.cuda.runtime: CuPy's cupy.cuda.runtime",
    "pygpu.dask": "pygpu.dask: Dask arrays of pygpu chunks",
}
KINDS = [("class", "Classes"), ("exception", "Exceptions"), ("ufunc", "Universal functions (elementwise)"),
         ("function", "Functions"), ("kernel", "Names used inside @cuda.jit kernels"), ("data", "Constants")]


def kind_of(obj):
    if isinstance(obj, type):
        return "exception" if issubclass(obj, BaseException) else "class"
    if isinstance(obj, pygpu.ufunc):
        return "ufunc"
    if hasattr(obj, "_kernel_name"):   # pygpu._jit.stubs: meaningful only in a kernel
        return "kernel"
    return "function" if callable(obj) else "data"


def underline(text, char):
    return "%s\n%s\n" % (text, char * len(text))


def object_page(modname, name, obj):
    kind = kind_of(obj)
    title = "%s.%s" % (modname, name)
    lines = [".. currentmodule:: %s" % modname, "", underline(title.replace("_", "\\_") if title.endswith("_")
                                                                 else title, "="), ""]
    if kind in ("class", "exception"):
        lines += [".. autoclass:: %s" % name, "   :members:", "   :show-inheritance:", ""]
        if kind == "class":
            lines.insert(-1, "   :special-members: __call__")
    elif kind in ("function", "ufunc"):
        lines += [".. autofunction:: %s" % name, ""]
    else:   # kernel-only names and constants: the docstring, no call signature of their own
        lines += [".. autodata:: %s" % name, "   :no-value:" if kind == "kernel" else "   :annotation:", ""]
    return "\n".join(lines)


def module_page(modname, entries, numpy_names):
    module = __import__(modname, fromlist=["_"])
    lines = [underline(TITLES[modname], "="), "", ".. module:: %s" % modname, ""]
    doc = inspect.getdoc(module)
    if doc:   # the module docstring's first paragraph, as plain text
        lines += [doc.split("\n\n")[0].replace("\n", " ").replace("*", "\\*").replace("`", "``")
                  .replace("````", "``"), ""]
    for kind, title in KINDS:
        names = [n for n, o in entries if kind_of(o) == kind]
        if not names:
            continue
        lines += [underline(title, "-"), ".. autosummary::", "   :nosignatures:", ""]
        lines += ["   %s" % n for n in names] + [""]
    if numpy_names:
        lines += [underline("NumPy's own objects", "-"),
                  "These are NumPy's objects themselves, re-exported so that code written for NumPy finds "
                  "them here (NumPy documents them): " + ", ".join("``%s``" % n for n in numpy_names) + ".", ""]
    lines += [".. toctree::", "   :hidden:", ""]
    lines += ["   generated/%s.%s" % (modname, n) for n, _ in entries] + [""]
    return "\n".join(lines)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def write_reference(app):
    root = os.path.join(app.srcdir, "reference")
    os.makedirs(os.path.join(root, "generated"), exist_ok=True)
    index = [underline("API reference", "="), "",
             "Every public name of pygpu, by module, with its signature and docstring. Names that "
             "NumPy also has behave as NumPy's unless the docstring says otherwise; "
             ":doc:`../numpy_coverage` lists NumPy's names against pygpu's.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    written = set()
    for modname in MODULES:
        try:
            entries = list(public_names(modname))
        except ImportError as e:   # pygpu.dask without Dask
            raise RuntimeError("the API reference needs %s to import (%s): install pygpu[docs]" % (modname, e))
        numpy_names = [n for n, o in public_names(modname, numpy_objects=True) if is_numpy_object(o, n)]
        for name, obj in entries:
            written.add("%s.%s.rst" % (modname, name))
            write_if_changed(os.path.join(root, "generated", "%s.%s.rst" % (modname, name)),
                             object_page(modname, name, obj))
        write_if_changed(os.path.join(root, modname + ".rst"), module_page(modname, entries, numpy_names))
        index.append("   %s" % modname)
    write_if_changed(os.path.join(root, "index.rst"), "\n".join(index) + "\n")
    for stale in set(os.listdir(os.path.join(root, "generated"))) - written:   # names gone since the last build
        os.remove(os.path.join(root, "generated", stale))


_SECTION = re.compile(r"^\s*(Parameters|Returns|Yields|Raises|Notes|Examples|See Also|Attributes|Methods)\n\s*-{3,}\s*$",
                      re.M)
_RST_INLINE = re.compile(r"([*`|\\])|(?<=\w)_(?=\W|$)")


def _has_signature(obj):
    try:
        inspect.signature(obj)
        return True
    except (TypeError, ValueError):
        return False


def plain_text_docstrings(app, what, name, obj, options, lines):
    """Most of pygpu's docstrings are prose written for help(), not reStructuredText: in those,
    `*args`, `|x|`, `r_` and backquotes are text, so they are escaped here; NumPy-style docstrings
    (with a Parameters or Returns section) go to napoleon as they are. The first line of an
    alias's docstring (`absolute(x, /, ...)` for pygpu.abs) is its signature, shown already."""
    if lines and re.match(r"^[A-Za-z_][\w.]*\(.*\)\s*$", lines[0]) and len(lines) > 1 and not lines[1].strip() \
            and _has_signature(obj):
        del lines[:2]
    if _SECTION.search("\n".join(lines)):
        return
    if what in ("data", "attribute") and lines and ": " in lines[0]:
        lines.insert(0, "")   # else napoleon reads "cuda.grid(ndim): the thread's index" as a type and its text
    lines[:] = [_RST_INLINE.sub(lambda m: "\\" + m.group(0), line) for line in lines]


def setup(app):
    app.connect("builder-inited", write_reference)
    app.connect("autodoc-process-docstring", plain_text_docstrings, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
