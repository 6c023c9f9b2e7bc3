"""Rendering the SDK section costs work linear in the schemas, up to the node budget.

The work is counted, not timed: every node the renderer classifies and every
node the shape-identity walk enters is one step. Steps per class of the schema
must stay below one bound and must not grow with the number of classes. A tool
whose keyword form used up the node budget was rendered again in the args form,
walking the same nodes a second time: one tool with 16,000 nested titled objects
took 2.15 s, on the event loop, the first time a prompt was assembled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import codemode.code_mode._sdk_share as share_module
import codemode.code_mode._sdk_types as types_module
from codemode.code_mode._sdk import SdkTool, render_stubs
from codemode.code_mode._sdk_types import MAX_NODES

if TYPE_CHECKING:
    from collections.abc import Callable

#: Classes of three fields each; the largest is well past the node budget.
SIZES = (1000, 2000, 4000, 8000, 16000)
#: Steps per class that no rendering needs: the class node and its three
#: fields classified (4), and its shape identity walked (10: the node, its
#: ``properties``, three field schemas and their scalars).
STEPS_PER_CLASS = 16
#: Steps per class may differ this much between sizes.
GROWTH = 1.15


def big_tool(classes: int) -> SdkTool:
    def shape(title: str) -> dict[str, object]:
        fields = {f"p{i}": {"type": "string"} for i in range(3)}
        return {"type": "object", "title": title, "properties": fields}

    parameters = {
        "type": "object",
        "properties": {f"k{i}": shape(f"C{i}") for i in range(classes)},
    }
    return SdkTool("big", "x", parameters, {"type": "string"})


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counter = [0]

    def counted(original: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object) -> object:
            counter[0] += 1
            return original(*args)

        return wrapper

    monkeypatch.setattr(types_module, "_classify", counted(types_module._classify))
    monkeypatch.setattr(
        share_module.ShapeIds, "_enter", counted(share_module.ShapeIds._enter)
    )
    return counter


def test_sdk_work_per_class_does_not_grow_with_the_schema(steps: list[int]) -> None:
    per_class = {}
    for classes in SIZES:
        steps[0] = 0
        render_stubs([big_tool(classes)])
        per_class[classes] = steps[0] / classes
    assert max(per_class.values()) <= STEPS_PER_CLASS, per_class
    for classes in SIZES[1:]:
        assert per_class[classes] <= per_class[SIZES[0]] * GROWTH, per_class


def test_sdk_work_for_one_tool_is_bounded_by_the_node_budget(steps: list[int]) -> None:
    # Parameters (both forms together) and output each spend at most one budget,
    # however large the schema; a schema past it is shown as Any.
    text = render_stubs([big_tool(24_000)])
    assert steps[0] <= 2 * MAX_NODES, steps[0]
    assert "args: dict[str, Any]" in text
    assert "class C0(" not in text


def test_a_large_schema_under_the_budget_is_still_typed() -> None:
    text = render_stubs([big_tool(4000)])
    assert "class C3999(TypedDict):" in text
    assert "async def big(" in text
