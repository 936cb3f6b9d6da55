"""pygpu.CompileError raised with the file and line of the construct."""
import os
import sys

from .._core import CompileError


def source_name(filename):
    """The name a user knows a source file by: its base name, or for the code of a Jupyter cell
    (which IPython compiles from a temporary file such as /tmp/ipykernel_1/686757321.py) the
    cell's name as IPython's tracebacks give it, 'In[4]'."""
    if not filename:
        return "<unknown>"
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    name_of = getattr(getattr(shell, "compile", None), "format_code_name", None)
    if name_of is not None:
        named = name_of(filename)
        if named:
            return named[1]
    return os.path.basename(filename)


def compile_error(message, filename=None, lineno=None):
    """A CompileError whose message ends with '(file.py, line N)' when the place is known (a
    notebook cell's: '(In[4], line N)')."""
    where = ""
    if filename is not None:
        where = f" ({source_name(filename)}" + (f", line {lineno})" if lineno is not None else ")")
    err = CompileError(message + where)
    err.filename = filename
    err.lineno = lineno
    err.log = None
    return err
