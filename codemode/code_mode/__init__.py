"""Code Mode: the reserved ``run_code`` tool, its SDK section, and the sub-dispatch bridge."""

from ._code_mode import CodeMode as CodeMode
from ._code_mode import CodeOutput as CodeOutput
from ._code_mode import CodeRun as CodeRun
from ._dispatch import SubCallRecord as SubCallRecord
from ._dispatch_events import CodeDispatchLog as CodeDispatchLog
from ._quotas import Quotas as Quotas
from ._sdk import SdkTool as SdkTool
from ._sdk import render_sdk as render_sdk
from ._spill_policy import SpillPolicy as SpillPolicy
from ._spill_store import LocalSpillStore as LocalSpillStore
from ._spill_store import SpillStore as SpillStore

__all__ = [
    "CodeDispatchLog",
    "CodeMode",
    "CodeOutput",
    "CodeRun",
    "LocalSpillStore",
    "Quotas",
    "SdkTool",
    "SpillPolicy",
    "SpillStore",
    "SubCallRecord",
    "render_sdk",
]
