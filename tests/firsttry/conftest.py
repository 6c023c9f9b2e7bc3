"""Shows the measured first-try rate and its failures at the end of a test run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .runner import REPORT_KEY

if TYPE_CHECKING:
    import pytest


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    measured = config.stash.get(REPORT_KEY, None)
    if measured is not None:
        terminalreporter.section("first-try success")
        terminalreporter.write_line(measured.text())
