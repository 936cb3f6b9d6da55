"""pygpu.CompileError raised with the file and line of the construct."""
import os

from .._core import CompileError


def compile_error(message, filename=None, lineno=None):
    """A CompileError whose message ends with '(file.py, line N)' when the place is known."""
    where = ""
    if filename is not None:
        where = f" ({os.path.basename(filename)}" + (f", line {lineno})" if lineno is not None else ")")
    err = CompileError(message + where)
    err.filename = filename
    err.lineno = lineno
    err.log = None
    return err
