"""A function's source as an AST: `def` functions in files and notebooks, and lambdas (found in
their line by their argument names and, when several match, by their bytecode); for a function
without source (exec of a string, a code generator, `python -c`), its bytecode decompiled."""
import ast
import inspect
import linecache
import textwrap

from .decompile import DecompileError, decompile


class Source:
    """node: the ast.FunctionDef or ast.Lambda; filename; line_offset: added to node line numbers
    to give lines of the file."""

    def __init__(self, node, filename, line_offset):
        self.node = node
        self.filename = filename
        self.line_offset = line_offset

    def line(self, node):
        return getattr(node, "lineno", self.node.lineno) + self.line_offset


def _same_code(lam, code, filename):
    """True when the lambda node compiles to code's bytecode."""
    try:
        outer = compile(ast.Expression(body=lam), filename, "eval")
    except (SyntaxError, ValueError):
        return False
    inner = [c for c in outer.co_consts if inspect.iscode(c)]
    return bool(inner) and inner[0].co_code == code.co_code


def _find_lambda(tree, fn, filename, lines=None):
    code = fn.__code__
    names = list(code.co_varnames[:code.co_argcount])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == names:
            if lines is None or node.lineno in lines:
                found.append(node)
    if len(found) > 1:
        found = [n for n in found if _same_code(n, code, filename)]
    return found[0] if len(found) == 1 else None


def _def_block(fn, code):
    """(lines, first line number) of a `def` by its indentation, read from linecache: what
    inspect.getsourcelines finds, without its tokenizer (a first call's few milliseconds). None
    when the file is not there."""
    linecache.checkcache(code.co_filename)  # a file edited since it was read (a kernel redefined)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    start = code.co_firstlineno - 1
    if not lines or start >= len(lines):
        return None
    i = start
    while i < len(lines) and lines[i].lstrip().startswith("@"):
        i += 1
    if i >= len(lines):
        return None
    indent = len(lines[i]) - len(lines[i].lstrip())
    end = i + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and len(line) - len(line.lstrip()) <= indent:
            break
        end += 1
    return lines[start:end], start + 1


def _parse_block(lines):
    try:
        return ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None


def source_of(fn):
    """The Source of fn: parsed from its file, else rebuilt from its bytecode. None when neither
    works (no code object, or bytecode outside what decompile.py rebuilds: then why_no_source(fn)
    says what stopped it)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    found = _parsed_source(fn, code)
    if found is not None:
        return found
    try:
        node = decompile(fn)
    except DecompileError:
        return None
    return Source(node, code.co_filename, 0)


def why_no_source(fn):
    """Why fn has no source pygpu can compile: the construct its bytecode has that the
    decompiler does not rebuild, with its line."""
    if getattr(fn, "__code__", None) is None:
        return f"{getattr(fn, '__name__', fn)!r} is not a Python function"
    try:
        decompile(fn)
    except DecompileError as e:
        return f"it has no Python source, and its bytecode has {e} (line {e.line}), which pygpu cannot rebuild"
    return None


def _parsed_source(fn, code):
    filename = code.co_filename
    tree = None
    if fn.__name__ != "<lambda>":
        block = _def_block(fn, code)
        if block is not None:
            lines, start = block
            tree = _parse_block(lines)
    if tree is None:
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            return None
        tree = _parse_block(lines)
    if fn.__name__ == "<lambda>":
        if tree is not None:
            node = _find_lambda(tree, fn, filename)
            if node is not None:
                return Source(node, filename, start - 1)
        # a lambda inside a larger expression: parse the whole file, look near its line
        whole = "".join(linecache.getlines(filename))
        try:
            tree = ast.parse(whole)
        except SyntaxError:
            return None
        node = _find_lambda(tree, fn, filename, range(start, start + len(lines)))
        return Source(node, filename, 0) if node is not None else None
    if tree is None:
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            return Source(node, filename, start - 1)
    return None
