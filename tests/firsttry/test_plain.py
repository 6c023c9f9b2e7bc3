"""The oracle runs a program as the script it reads as: ``global`` reaches the top level."""

from __future__ import annotations

import pytest

from .plain import run_plain


@pytest.mark.parametrize(
    ("source", "value"),
    [
        (
            "total = 0\ndef add(x):\n    global total\n    total += x\nadd(1)\nadd(2)\n"
            "return total",
            3,
        ),
        (
            "count = 0\nclass C:\n    def bump(self):\n        global count\n"
            "        count += 1\n        return count\nC().bump()\nreturn [C().bump(), count]",
            [2, 2],
        ),
    ],
    ids=["function", "method"],
)
async def test_global_in_a_function_reaches_the_top_level_name(source: str, value: object) -> None:
    outcome = await run_plain(source)
    assert outcome.error is None, outcome.error
    assert outcome.value == value
    # A name only a function makes global, or one the top level declares global
    # too, stays a real global.
    for other, expected in [
        ("def setup():\n    global made\n    made = 5\nsetup()\nreturn made", 5),
        ("global n\nn = 1\ndef inc():\n    global n\n    n += 1\ninc()\nreturn n", 2),
    ]:
        assert (await run_plain(other)).value == expected


async def test_an_enum_member_in_a_tools_arguments_is_sent_as_its_value() -> None:
    # As json.dumps writes it and run_code sends it: `Priority.HIGH` of a StrEnum
    # reaches the tool as "high" (the native registry would refuse the member).
    outcome = await run_plain(
        "from enum import IntEnum, StrEnum\n"
        "class Priority(StrEnum):\n    HIGH = 'high'\n"
        "class Severity(IntEnum):\n    MAJOR = 3\n"
        "t = await tools.create_ticket(customer_id='c1', subject='s', priority=Priority.HIGH)\n"
        "e = await tools.escalate_ticket({'ticket_id': t['id'], 'severity': Severity.MAJOR})\n"
        "return [t['priority'], e['severity']]"
    )
    assert outcome.error is None, outcome.error
    assert outcome.value == ["high", 3]
