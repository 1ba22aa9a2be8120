"""Child scripts that run under a lowered address-space limit (``RLIMIT_AS``),
for the out-of-memory tests: the common start of each script."""

from __future__ import annotations

import textwrap

PRELUDE = textwrap.dedent(
    """
    import resource


    def vm_bytes() -> int:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmSize")


    def limit_address_space(extra: int) -> None:
        \"\"\"Lets the process grow by ``extra`` bytes beyond what it holds now.\"\"\"
        limit = vm_bytes() + extra
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    """
)


def child_script(body: str) -> str:
    """``body`` (a script, indented or not) after :data:`PRELUDE`."""
    return PRELUDE + textwrap.dedent(body)
