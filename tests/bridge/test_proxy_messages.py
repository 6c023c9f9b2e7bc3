"""The child's ``tools`` proxy says what to send instead of an argument that is not JSON."""

from __future__ import annotations

from .test_child_proxy import Recorder, run_program


async def test_an_enum_member_argument_names_its_value() -> None:
    handler = Recorder()
    report, outcome = await run_program(
        """
        import enum

        class Channel(enum.Enum):
            EMAIL = "email"

        async def main():
            try:
                await tools.search(query="x", channel=Channel.EMAIL)
            except ToolCallError as exc:
                return str(exc)
        """,
        handler,
    )
    # The class's module is the plain exec's here (`builtins.`); in run_code it is dropped.
    assert report.value == (
        'tool "search" was not called: its arguments must be lossless JSON: a value of type '
        "builtins.Channel (an enum member: use Channel.EMAIL.value) is not JSON - at `$.channel`"
    )
    assert handler.calls == []
    assert outcome.error is None
