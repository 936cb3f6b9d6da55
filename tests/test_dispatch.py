"""NumPy's functions on pygpu arrays (NEP 18 __array_function__): one table from NumPy's function
to pygpu's; where pygpu has none, NumPy's own on zero-copy views for CPU arrays, TypeError naming
the function for arrays on a GPU: never a silent copy between device and host."""
import sys
import types

import numpy as np
import pytest

import pygpu
from pygpu import _dispatch
from conftest import assert_array_equal


def test_numpy_functions_run_pygpus(device):
    x = np.arange(12.0).reshape(3, 4)
    p = pygpu.asarray(x, device=device)
    for call in [
        lambda xp, a: xp.concatenate([a, a], axis=1),
        lambda xp, a: xp.stack([a, a], axis=-1),
        lambda xp, a: xp.vstack([a, a]),
        lambda xp, a: xp.pad(a, 1, mode="reflect"),
        lambda xp, a: xp.flip(a, 0),
        lambda xp, a: xp.tile(a, 2),
        lambda xp, a: xp.repeat(a, 2, axis=0),
        lambda xp, a: xp.reshape(a, (4, 3)),
        lambda xp, a: xp.transpose(a),
        lambda xp, a: xp.where(a > 3, a, 0),
        lambda xp, a: xp.tril(a),
        lambda xp, a: xp.diagonal(a),
        lambda xp, a: xp.isclose(a, a),
        lambda xp, a: xp.round(a / 3, 2),
        lambda xp, a: xp.broadcast_to(a[0], (2, 4)),
        lambda xp, a: xp.roll(a, 1),
    ]:
        r = call(np, p)
        assert isinstance(r, pygpu.ndarray), r
        assert r.device == device
        assert_array_equal(r, call(np, x))
    rs = np.split(p, 2, axis=1)
    assert all(isinstance(r, pygpu.ndarray) for r in rs)
    assert np.shape(p) == (3, 4) and np.ndim(p) == 2 and np.size(p) == 12
    assert np.result_type(p, 1.0) == np.float64


def test_mixed_numpy_and_pygpu_arguments(device):
    p = pygpu.ones((2, 2), dtype=np.float32, device=device)
    r = np.concatenate([np.zeros((1, 2), np.int32), p])
    assert isinstance(r, pygpu.ndarray) and r.device == device
    assert_array_equal(r, np.concatenate([np.zeros((1, 2), np.int32), np.ones((2, 2), np.float32)]))


def test_like_argument(device):
    p = pygpu.ones(2, device=device)
    r = np.zeros(3, like=p)
    assert isinstance(r, pygpu.ndarray)
    assert_array_equal(r, np.zeros(3))


def _unimplemented():
    for f in (np.is_busday, np.busday_count):
        if _dispatch.implementation(f) is None:
            return f
    pytest.skip("every candidate function is implemented")


def test_missing_function_on_a_gpu_raises_type_error_naming_it(device):
    f = _unimplemented()
    p = pygpu.ones((2, 2), device=device)
    if p.device.kind == "cpu":
        pytest.skip("the CPU device runs NumPy's version (next test)")
    with pytest.raises(TypeError, match=f"{f.__name__} is not implemented for pygpu arrays on a GPU"):
        f(p)


def test_missing_function_on_the_cpu_runs_numpys_on_zero_copy_views(monkeypatch):
    x = np.arange(8.0).reshape(2, 4)
    p = pygpu.asarray(x, device="cpu")
    window = np.lib.stride_tricks.sliding_window_view
    _dispatch.implementation(window)   # (the table built) pygpu.lib's taken out: NumPy's own runs
    monkeypatch.setattr(_dispatch, "_table", {k: v for k, v in _dispatch._table.items() if k is not window})
    assert _dispatch.implementation(window) is None
    assert_array_equal(window(p, 3, axis=1), window(x, 3, axis=1))
    # a function that writes into its argument writes into the pygpu array's memory
    np.copyto(np.asarray(p), 5.0)
    assert_array_equal(p, np.full((2, 4), 5.0))
    mantissa, exponent = np.frexp(pygpu.asarray([3.0, 0.5, 10.0], device="cpu"))   # pygpu's, through __array_ufunc__
    assert isinstance(mantissa, pygpu.ndarray) and isinstance(exponent, pygpu.ndarray)
    assert_array_equal(mantissa, np.frexp([3.0, 0.5, 10.0])[0])
    assert_array_equal(exponent, np.frexp([3.0, 0.5, 10.0])[1])
    assert_array_equal(np.ldexp(pygpu.asarray([0.75], device="cpu"), 3), np.ldexp([0.75], 3))


def test_arguments_pygpu_cannot_hold_run_numpys_on_the_cpu():
    """NumPy's function with a pygpu array and an argument pygpu has no dtype for (None, str): NumPy's
    answer on zero-copy views, as for a function pygpu lacks; pygpu's other errors stay."""
    p, x = pygpu.arange(3, device="cpu"), np.arange(3)
    got, want = np.broadcast_arrays(p, None), np.broadcast_arrays(x, None)
    assert isinstance(got, tuple) and isinstance(got[0], pygpu.ndarray) and got[1].dtype == object
    assert_array_equal(got[0], want[0])
    assert (got[1] == want[1]).all()
    assert_array_equal(np.where(p > 0, p, 7), np.where(x > 0, x, 7))    # numbers still pygpu's
    out = np.stack([p, ["a", "b", "c"]])
    assert isinstance(out, np.ndarray) and (out == np.stack([x, ["a", "b", "c"]])).all()
    with pytest.raises(ValueError, match="dimension"):   # not a dtype problem: pygpu's error, not NumPy's answer
        np.concatenate([p, pygpu.ones((2, 2), device="cpu")])
    # a dtype= pygpu has no arrays of is refused, as CuPy refuses it (Dask's arg reductions rely on it)
    with pytest.raises(TypeError, match="does not support dtype"):
        np.empty_like(p, shape=(2,), dtype=[("vals", "f8"), ("arg", "i8")])


def test_matplotlib_plots_pygpu_arrays(tmp_path):
    """Arrays on the CPU device: matplotlib takes them as NumPy's (a GPU's arrays are refused with
    an error that says to copy them: test_missing_function_on_a_fake_gpu_raises_type_error)."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x, y = pygpu.arange(3, device="cpu"), pygpu.arange(3.0, device="cpu")
    fig, ax = plt.subplots()
    try:
        ax.bar_label(ax.bar(x, y))   # np.broadcast_arrays(x, height, ..., hatch=None)
        ax.barh(x, y)
        ax.plot(x, y)
        ax.scatter(x, y, c=y)
        ax.errorbar(x, y, yerr=y)
        ax.hist(y)
        fig.savefig(tmp_path / "plot.png")
    finally:
        plt.close(fig)


def test_other_array_types_get_their_turn(device):
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return ("other", func.__name__)

    p = pygpu.ones(2, device=device)
    assert np.concatenate([p, Other()]) == ("other", "concatenate")
    assert pygpu.ndarray.__array_function__(p, np.concatenate, (pygpu.ndarray, Other), ([p],), {}) \
        is NotImplemented


def test_register_and_submodule_tables(device, monkeypatch):
    p = pygpu.arange(3, device=device)
    f = _unimplemented()

    def impl(*args, **kwargs):
        return ("pygpu's", len(args))
    monkeypatch.setattr(_dispatch, "_explicit", dict(_dispatch._explicit))
    monkeypatch.setattr(_dispatch, "_table", None)
    assert _dispatch.register(f)(impl) is impl
    assert f(p, p) == ("pygpu's", 2)

    # a submodule: same names map automatically, others through its _NUMPY_FUNCTIONS
    fake = types.ModuleType("pygpu.fake_fft")
    fake.fft = lambda a, *args, **kw: "fake fft"
    fake._NUMPY_FUNCTIONS = {np.fft.ifft: lambda a, *args, **kw: "fake ifft"}
    monkeypatch.setitem(sys.modules, "pygpu.fake_fft", fake)
    monkeypatch.setattr(_dispatch, "_SUBMODULES", dict(_dispatch._SUBMODULES, **{"numpy.fft": "pygpu.fake_fft"}))
    monkeypatch.setattr(_dispatch, "_table", None)
    assert np.fft.fft(p) == "fake fft"
    assert np.fft.ifft(p) == "fake ifft"
    if p.device.kind != "cpu":
        with pytest.raises(TypeError, match="numpy.fft.rfft is not implemented"):
            np.fft.rfft(p)
    else:   # the CPU device: NumPy's own, on a zero-copy view
        assert_array_equal(np.fft.rfft(p), np.fft.rfft(np.arange(3)))
    monkeypatch.setattr(_dispatch, "_table", None)


def test_table_has_no_ufuncs_or_types():
    _dispatch.implementation(np.concatenate)
    for np_func, pg_func in _dispatch._table.items():
        assert not isinstance(np_func, (type, np.ufunc)) and callable(pg_func)
    assert _dispatch.implementation(np.concatenate) is pygpu.concatenate
    assert _dispatch.implementation(np.sin) is None   # ufuncs take the __array_ufunc__ route


@pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0, reason="this build has no CUDA kernels")
def test_missing_function_on_a_fake_gpu_raises_type_error(mock_driver):
    from conftest import run_mock
    out = run_mock(mock_driver, """
        d = pygpu.asarray(np.arange(4.0), device="cuda:0")
        w = np.lib.stride_tricks.sliding_window_view(d, 2)   # pygpu.lib's: a view on the device
        print(json.dumps({"function": error(lambda: np.is_busday(d)), "window": [str(w.device), w.shape],
                          "window_data": w.data_ptr == d.data_ptr, "none": error(lambda: np.broadcast_arrays(d, None))}))
    """)
    # an argument pygpu has no arrays of (None): NumPy's answer on the CPU device, and on a GPU an
    # error that says why not and what to do (matplotlib's bar passes hatch=None so)
    assert out["none"]["type"] == "TypeError" and "does not support dtype dtype('O')" in out["none"]["msg"]
    assert "numpy.broadcast_arrays got an argument pygpu has no arrays of" in out["none"]["msg"]
    assert "pygpu does not copy device arrays to the host implicitly" in out["none"]["msg"]
    assert ".get() or pygpu.asnumpy()" in out["none"]["msg"]
    assert out["function"]["type"] == "TypeError"
    assert "is_busday is not implemented for pygpu arrays on a GPU" in out["function"]["msg"]
    assert out["window"] == ["cuda:0", [3, 2]] and out["window_data"]
    # (every NumPy ufunc has a pygpu implementation now, np.frexp and np.ldexp the last ones)
    assert not [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and not hasattr(pygpu, n)]


@pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0, reason="this build has no CUDA kernels")
def test_matplotlib_with_gpu_arrays(mock_driver):
    """matplotlib with arrays on a GPU: what converts them with np.asarray draws (__array__ copies,
    as NumPy 2's copy=None allows); bar's np.broadcast_arrays(x, height, ..., hatch=None), NumPy's
    version on the arrays' memory on the CPU device, is refused on a GPU with an error that says
    why and to copy them (.get(), pygpu.asnumpy()), not pygpu's bare "does not support dtype"."""
    pytest.importorskip("matplotlib")
    from conftest import run_mock
    out = run_mock(mock_driver, """
        import io
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        x, y = pygpu.arange(3, device="cuda:0"), pygpu.arange(3.0, device="cuda:0")
        fig, ax = plt.subplots()
        def plot():   # (matplotlib converts the data when it draws)
            ax.plot(x, y)
            fig.savefig(io.BytesIO())
        print(json.dumps({"bar": error(lambda: ax.bar(x, y)), "plot": error(plot)}))
    """)
    assert out["plot"] is None, out
    assert out["bar"]["type"] == "TypeError", out
    assert out["bar"]["msg"].startswith("numpy.broadcast_arrays got an argument pygpu has no arrays of (pygpu does "
                                        "not support dtype dtype('O'))"), out
    assert ".get() or pygpu.asnumpy()" in out["bar"]["msg"], out
