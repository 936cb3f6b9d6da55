import cupy  # noqa: F401  (cupy._internals registers the cupy_backends name stubs)
