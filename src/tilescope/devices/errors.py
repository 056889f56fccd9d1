"""The one error the device layer raises for GPU facilities that have no CPU meaning."""


class NotOnCpu(RuntimeError):
    """A CUDA facility that tilescope's CPU device layer does not emulate (CUDA graphs, IPC, ...)."""

    def __init__(self, call: str, why: str = ""):
        self.call = call
        detail = f" ({why})" if why else ""
        super().__init__(f"{call} is not available on the CPU{detail}: tilescope's device layer runs "
                         f"GPU-targeted code on the CPU and has no equivalent for it (see docs/devices.md)")
