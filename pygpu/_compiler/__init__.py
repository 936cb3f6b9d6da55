"""pygpu's compiler of Python functions: one front end, emitters on top of it.

Front end (frontend.py, source.py, types.py, optable.py): a function's source (its `ast`, found
with `inspect`; `def` functions in files and notebooks, and lambdas; for a function without
source, its bytecode rebuilt as an `ast` by decompile.py) is checked against the supported subset
and typed for given argument types with Numba's rules, giving the typed IR below. A straight-line
function whose bytecode has no rebuilt form is traced instead (trace.py), which gives the same IR.
Anything outside the subset raises pygpu.CompileError naming the construct, file and line.

Emitters: vm.py turns the IR into a program of the vectorize VM (csrc/kernels/vm.h), run by
interpreter kernels compiled with pygpu (vectorize, fuse, reduce). The IR knows nothing of the VM,
so other emitters (CUDA C for cuda.jit kernels) take the same IR.

The typed IR (ir.py)
--------------------
Types are NumPy dtypes: bool, int8 ... uint64, float32, float64, complex64, complex128 (float16
appears only in signatures: it is computed as float32). Every expression node has `.type`.

    Function(name, params: [Var], return_type, body: [stmt], locals: [Var], filename, line)
    Var(name, type)                    one type per local for the whole function (unified)

Statements (each with .line, the source line):
    Assign(target: Var, value)         value.type == target.type
    If(test: bool expr, body, orelse)
    While(test: bool expr, body, orelse)            orelse runs when the loop ends without break
    ForRange(var: int64 Var, start, stop, step, body, orelse)   range() evaluated once
    Break, Continue, Return(value)     value.type == the function's return type

Expressions:
    Const(value, type)                 a number
    Load(var)
    Cast(value, type)                  NumPy's unsafe cast (C conversion; complex -> real part)
    Op(op, args, type)                 the op-table loop of `op` ('add', 'sin', 'less', '_where'
                                       ...) whose input types are the args' types; type is the
                                       loop's output type; the semantics are the ufunc loop's
    Select(cond, a, b, type)           numpy.where: both sides evaluated
    IfExp(cond, a, b, type)            Python's conditional expression: one side evaluated
    BoolOp(op, values, tests, type)    Python's and/or over values (tests: their truth)
    MakeComplex(re, im, type), Real(value, type), Imag(value, type)
    Call(function: Function, args, type)   a call of another typed Function (emitters inline it)

Typing (types.py): Python int literals are int64, float float64, complex complex128; integer
arithmetic is 64-bit; float32 op float32 stays float32, float32 ** int stays float32; math.*
functions keep float32; NumPy's functions (np.sin, np.where, ...) use NumPy's own type
resolution, Python literals being weak (NEP 50); a local assigned values of several types takes
their unification (int64 and float64 give float64)."""
from .errors import compile_error  # noqa: F401
from .frontend import NoSource, compile_function  # noqa: F401
from . import ir, types  # noqa: F401


def compile_program(pyfunc, arg_types, return_type=None, context="vectorize"):
    """(VmProgram, return type) of pyfunc for these argument dtypes: from its source, or traced
    when it has none. return_type None: inferred."""
    from . import vm
    try:
        fn = compile_function(pyfunc, arg_types, return_type, context)
    except NoSource:
        from .trace import trace_function
        fn = trace_function(pyfunc, arg_types, return_type, context)
    return vm.emit(fn), fn.return_type
