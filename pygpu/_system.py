"""What the machine reports about its GPUs, independently of pygpu's driver calls: used to say
loudly when a GPU is there but pygpu cannot use it (a driver older than the toolkit that built
the kernels, a forked process, ...), instead of falling back to the CPU without a word."""
import shutil
import subprocess


def nvidia_smi_gpus():
    """The GPU names `nvidia-smi -L` lists (an empty list without nvidia-smi or a GPU)."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return []
    try:
        out = subprocess.run([exe, "-L"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    # "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)"
    return [line.split(":", 1)[1].split("(UUID")[0].strip() for line in out.splitlines() if line.startswith("GPU ")]


def unusable_gpu_warning():
    """A warning text when nvidia-smi sees a GPU that pygpu cannot use, else None."""
    from pygpu import _core

    count, reason = _core._cuda_device_count()
    gpus = nvidia_smi_gpus() if count == 0 else []
    if not gpus:
        return None
    return (f"WARNING: this machine has {len(gpus)} NVIDIA GPU{'s' if len(gpus) > 1 else ''} ({', '.join(gpus)}) "
            f"but pygpu cannot use {'them' if len(gpus) > 1 else 'it'}: {reason}. Everything runs on the CPU.")
