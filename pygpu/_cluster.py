"""pygpu.dask.LocalCluster: a dask.distributed cluster on this machine with one worker process per
GPU, and optionally workers on the CPU device beside them.

Each GPU worker's process sees only its GPU (CUDA_VISIBLE_DEVICES, which the CUDA driver
honours, set in the worker before pygpu first touches the driver), so its default device,
cuda:0, is that GPU; it also holds the Dask resource GPU=1. A CPU worker runs with
PYGPU_DEVICE=cpu. Every worker preloads pygpu.dask (distributed's `preload`), so that from its
first message on, a pygpu array reaching it (a chunk from another worker, an array embedded in
the graph) lands on its default device: one graph runs across both kinds (pygpu/_distributed.py).

dask-cuda's LocalCUDACluster, which sets CUDA_VISIBLE_DEVICES per worker the same way, works with
pygpu unchanged; this class is for machines without dask-cuda and for mixed clusters. On many
machines, start one `dask worker` per GPU with CUDA_VISIBLE_DEVICES set (see the README)."""
import logging
import os

from distributed import Nanny, Scheduler, SpecCluster

import pygpu


def visible_gpus():
    """The GPUs this process may use, as CUDA_VISIBLE_DEVICES names them (or their indices)."""
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    count = pygpu._core._cuda_device_count()[0]
    if listed is not None:
        return [d.strip() for d in listed.split(",") if d.strip()][:count]
    return [str(i) for i in range(count)]


class LocalCluster(SpecCluster):
    """One worker process per GPU (devices: the GPUs to use, as CUDA_VISIBLE_DEVICES names them;
    all visible ones by default, or the first n_workers), plus cpu_workers workers on the CPU
    device. On a machine without a GPU and no cpu_workers given, one CPU worker per n_workers (at
    least one), so the same program runs there::

        from dask.distributed import Client
        import pygpu.dask
        cluster = pygpu.dask.LocalCluster()         # one worker per GPU
        client = Client(cluster)

    threads_per_worker: threads of each worker (one suits a GPU); other keywords go to
    SpecCluster (asynchronous, ...), dashboard_address to the scheduler; logs below warnings are
    silenced, as LocalCluster's."""

    def __init__(self, n_workers=None, *, devices=None, cpu_workers=None, threads_per_worker=1,
                 dashboard_address=":8787", worker_options=None, silence_logs=logging.WARN, **kwargs):
        if devices is None:
            devices = visible_gpus()
            if n_workers is not None:
                devices = devices[:n_workers]
        devices = [str(d) for d in devices]
        if cpu_workers is None:
            cpu_workers = 0 if devices else max(n_workers or 1, 1)
        if not devices and not cpu_workers:
            raise ValueError("LocalCluster needs a GPU (devices=) or CPU workers (cpu_workers=)")
        common = {"nthreads": threads_per_worker, "silence_logs": silence_logs, **(worker_options or {})}
        # pygpu.dask at each worker's start, before the first message: the serializers and the
        # unpickler that land arrays on the worker's device (pygpu/_distributed.py)
        preload = common.get("preload") or []
        common["preload"] = ["pygpu.dask"] + [p for p in ([preload] if isinstance(preload, str) else preload)
                                              if p != "pygpu.dask"]
        workers = {}
        for d in devices:
            workers[f"gpu-{d}"] = {"cls": Nanny, "options": {**common, "env": {"CUDA_VISIBLE_DEVICES": d},
                                                             "resources": {"GPU": 1}}}
        for i in range(cpu_workers):
            workers[f"cpu-{i}"] = {"cls": Nanny, "options": {**common, "env": {"PYGPU_DEVICE": "cpu"}}}
        scheduler = {"cls": Scheduler, "options": {"dashboard_address": dashboard_address}}
        super().__init__(workers=workers, scheduler=scheduler, name="pygpu.dask.LocalCluster",
                         silence_logs=silence_logs, **kwargs)
