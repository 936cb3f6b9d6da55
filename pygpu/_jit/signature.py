"""The parameters of a CUDA C kernel, read from its source.

The launch checks each argument against its parameter: the compiled function gives the sizes
(cuFuncGetParamInfo on CUDA 12.4+ drivers, the C++ types themselves on the CPU); the source gives
what the bytes mean (a pointer to float32, an int, ...), so that a Python 1.5 becomes a float for
a ``float`` parameter and a float64 array passed for ``float*`` is refused. This is a reader of
declarations, not a C++ parser: a kernel whose declaration it cannot read (macros, overloads) is
described as unknown, and the launch then goes by the sizes alone.

A description is a tuple of (kind, type, size) per parameter, kind being one of the PARAM_*
constants (kernels/cpu_kernel_abi.h), type a pygpu type code (-1 for none) and size in bytes
(-1 when unknown).
"""
import re

import numpy as np

PARAM_UNKNOWN, PARAM_OTHER, PARAM_POINTER, PARAM_BOOL, PARAM_INT, PARAM_UINT, PARAM_FLOAT = -1, 0, 1, 2, 3, 4, 5

# pygpu's type codes (kernels/kernel_types.h, PgType)
TYPE_CODES = {np.dtype(n): i for i, n in enumerate(
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
     "float16", "float32", "float64", "complex64", "complex128"])}

_SCALARS = {
    "bool": "bool", "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "short": "int16", "short int": "int16", "signed short": "int16", "signed short int": "int16",
    "unsigned short": "uint16", "unsigned short int": "uint16",
    "int": "int32", "signed": "int32", "signed int": "int32", "unsigned": "uint32", "unsigned int": "uint32",
    "long": "int64", "long int": "int64", "signed long": "int64", "unsigned long": "uint64",
    "unsigned long int": "uint64", "long long": "int64", "long long int": "int64", "signed long long": "int64",
    "unsigned long long": "uint64", "unsigned long long int": "uint64",
    "int8_t": "int8", "int16_t": "int16", "int32_t": "int32", "int64_t": "int64",
    "uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
    "size_t": "uint64", "ptrdiff_t": "int64", "ssize_t": "int64", "intptr_t": "int64", "uintptr_t": "uint64",
    "float": "float32", "double": "float64", "half": "float16", "__half": "float16",
}
# complex types are structs to the compiler: their bytes, but a Python complex fits them
_COMPLEX = {"complex<float>": "complex64", "complex<double>": "complex128", "cuComplex": "complex64",
            "cuFloatComplex": "complex64", "cuDoubleComplex": "complex128"}
# what an array passed for a pointer to a CUDA vector type or a half type holds: its components
# (float2* takes complex64 data too, as a float* does); by value they stay structs of their size
_POINTEES = {"__half2": "float16", "half2": "float16", "__nv_half2": "float16", "__nv_half": "float16",
             "float16": "float16"}
for _n, _t in (("char", "int8"), ("uchar", "uint8"), ("short", "int16"), ("ushort", "uint16"), ("int", "int32"),
               ("uint", "uint32"), ("long", "int64"), ("ulong", "uint64"), ("longlong", "int64"),
               ("ulonglong", "uint64"), ("float", "float32"), ("double", "float64")):
    for _k in (1, 2, 3, 4):
        _POINTEES["%s%d" % (_n, _k)] = _t
del _n, _t, _k
_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "typename",
               "__grid_constant__", "register", "class", "enum", "union"}

_GLOBAL = re.compile(r"\b(?:__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void|void\s+__global__)\s+"
                     r"(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")
_TEMPLATE = re.compile(r"template\s*<([^<>]*(?:<[^<>]*>[^<>]*)*)>\s*(?:extern\s+\"C\"\s*)?(?:static\s+)?$")


def strip_comments(source):
    """The source with comments and string literals blanked (positions kept)."""
    def blank(m):
        text = m.group(0)
        if text.startswith(("'", '"')):
            return text[0] + " " * (len(text) - 2) + text[-1]
        return re.sub(r"[^\n]", " ", text)
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, source, flags=re.S)


def split_top(text, sep=","):
    """text split at `sep` outside (), <>, [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def _balanced(text, start):
    """The text between the parenthesis at `start` and its partner, or None."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return None


def sites(source):
    """The __global__ declarations of the source: (name, template parameters or None, position of
    the opening parenthesis of the parameters, their text, the (start, end) of the body or None
    for a declaration without one)."""
    text = strip_comments(source)
    found = []
    for m in _GLOBAL.finditer(text):
        paren = m.end() - 1
        params = _balanced(text, paren)
        if params is None:
            continue
        t = _TEMPLATE.search(text[max(0, m.start() - 400):m.start()])
        after = paren + len(params) + 2
        body = None
        brace = re.match(r"[^;{]*\{", text[after:])
        if brace:
            start = after + brace.end() - 1
            depth = 0
            for i in range(start, len(text)):
                depth += text[i] == "{"
                depth -= text[i] == "}"
                if depth == 0:
                    body = (start, i + 1)
                    break
        found.append((m.group(1), split_top(t.group(1)) if t else None, paren, params, body))
    return found


_EXTERN_C = re.compile(r'extern\s+"C"\s*(?:(?:static|inline|__forceinline__|__noinline__)\s+)*$')


def c_linkage_names(source):
    """The names of the __global__ functions the source gives C linkage (extern "C" before the
    declaration, or inside an extern "C" { } block)."""
    text = strip_comments(source)
    blocks = []
    for m in re.finditer(r'\bextern\s+"C"\s*\{', source):
        if text[m.start():m.start() + 6] != "extern":
            continue   # in a comment or a string
        depth = 0
        for i in range(m.end() - 1, len(text)):
            depth += text[i] == "{"
            depth -= text[i] == "}"
            if depth == 0:
                blocks.append((m.end(), i))
                break
    names = []
    for m in _GLOBAL.finditer(text):
        before = source[max(0, m.start() - 200):m.start()]
        if _EXTERN_C.search(before) or any(a <= m.start() < b for a, b in blocks):
            if m.group(1) not in names:
                names.append(m.group(1))
    return names


def kernels(source):
    """{name: [(template parameters or None, parameter list text), ...]} of the __global__
    functions in the source (a forward declaration and its definition count once)."""
    found = {}
    for name, template, _, params, _ in sites(source):
        decl = (template, params)
        if decl not in found.setdefault(name, []):
            found[name].append(decl)
    return found


def kernel_names(source):
    """The names of the source's non-template kernels declared once (exportable by name)."""
    return [name for name, decls in kernels(source).items() if len(decls) == 1 and decls[0][0] is None]


def _param(text, binding):
    """(kind, type, size) of one parameter declaration."""
    text = re.sub(r"=.*$", "", text, flags=re.S).strip()
    if "&" in text or "(" in text:
        return (PARAM_UNKNOWN, -1, -1)
    pointers = text.count("*") + text.count("[")
    text = re.sub(r"\[[^\]]*\]", " ", text).replace("*", " ")
    words = [w for w in re.findall(r"[A-Za-z_][\w:]*(?:\s*<[^<>]*>)?", text) if w not in _QUALIFIERS]
    words = [re.sub(r"\s+", "", w) for w in words]
    # the last word is the parameter's name (an unnamed "unsigned int" reads as "unsigned": the
    # same type)
    if len(words) >= 2:
        words = words[:-1]
    words = [binding.get(w, w) for w in words]
    base = " ".join(words)
    base = re.sub(r"^(?:std::|thrust::|cuda::std::)", "", base)
    base = re.sub(r"\s+", " ", base.replace("< ", "<").replace(" >", ">"))
    base = re.sub(r"^(?:std::|thrust::|cuda::std::)?complex<(float|double)>$", r"complex<\1>", base)
    dtype = _SCALARS.get(base)
    if pointers:
        if pointers > 1:
            return (PARAM_POINTER, -1, 8)
        t = dtype or _COMPLEX.get(base) or _POINTEES.get(base)
        return (PARAM_POINTER, TYPE_CODES[np.dtype(t)] if t else -1, 8)
    if base in _COMPLEX:
        # a number to the launch (Python and NumPy scalars converted to it), a struct to the compiler
        d = np.dtype(_COMPLEX[base])
        return (PARAM_FLOAT, TYPE_CODES[d], d.itemsize)
    if base in ("float16", "__nv_half"):
        dtype = "float16"   # CuPy's float16 class (<cupy/float16.cuh>): converted as __half is
    if dtype is None:
        return (PARAM_OTHER, -1, -1) if base else (PARAM_UNKNOWN, -1, -1)
    d = np.dtype(dtype)
    kind = {"b": PARAM_BOOL, "i": PARAM_INT, "u": PARAM_UINT, "f": PARAM_FLOAT}[d.kind]
    return (kind, TYPE_CODES[d], d.itemsize)


def _template_binding(template_params, expression):
    """{template parameter name: argument text} for a name expression such as 'f<float, 4>'."""
    m = re.match(r"^\s*[\w:]+\s*<(.*)>\s*$", expression or "", re.S)
    if not m:
        return None
    args = split_top(m.group(1))
    names = []
    for p in template_params:
        p = re.sub(r"=.*$", "", p).strip()
        w = re.findall(r"\w+", p)
        if not w:
            return None
        names.append(w[-1])
    if len(args) > len(names):
        return None
    return dict(zip(names, args))


_TYPEDEF = re.compile(r"\btypedef\s+([^;{}()]+?)\s*\b(\w+)\s*;")
_USING = re.compile(r"\busing\s+(\w+)\s*=\s*([^;{}()]+?)\s*;")


def aliases(source):
    """{name: type text} of the source's plain typedefs and `using` aliases (`typedef float T;`,
    `using idx = long long;`), each resolved through the ones before it."""
    text = strip_comments(source)
    found = []
    for m in _TYPEDEF.finditer(text):
        found.append((m.start(), m.group(2), m.group(1)))
    for m in _USING.finditer(text):
        found.append((m.start(), m.group(1), m.group(2)))
    table = {}
    for _, alias, target in sorted(found):
        table[alias] = _substitute(target, table)
    return table


def _substitute(text, table):
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: table.get(m.group(0), m.group(0)), text)


def signature(source, name, expression=None):
    """The parameters of kernel `name` (instantiated by `expression`, e.g. 'f<float>', for a
    template), or None when the source does not declare it once in a form this reader knows."""
    decls = kernels(source).get(name)
    if not decls or len(decls) != 1:
        return None
    template_params, params = decls[0]
    binding = {}
    if template_params is not None:
        binding = _template_binding(template_params, expression)
        if binding is None:
            return None
    parts = split_top(params)
    if parts == ["void"]:
        parts = []
    table = {k: v for k, v in aliases(source).items() if k not in binding}
    return tuple(_param(_substitute(p, table) if table else p, binding) for p in parts)
