"""The MCP SDK is an optional extra: nothing imports it before a connection or server is made."""

from __future__ import annotations

import subprocess
import sys

from .processes import REPO, checkout_env

CHECK = """
import sys
import codemode, codemode.cli, codemode.mcp, codemode.mcp._server, codemode.mcp._spec
print(sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.")))
"""


def test_importing_codemode_its_cli_and_codemode_mcp_loads_no_mcp_module() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=REPO, env=checkout_env(), capture_output=True,
        text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
