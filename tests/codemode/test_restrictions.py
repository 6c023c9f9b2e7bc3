"""Restrictions: what a scope's filters mask, across the whole scope chain.

A restriction filters what a scope inherits (the global tools and every
ancestor's own tools); an inherited name is visible only if every restriction
on the chain admits it, and a scope's own tools are never filtered for the
scope itself (reference ``ToolRestriction`` and the registry's view).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from codemode import (
    RUN_CODE,
    AbortSignal,
    Agent,
    CallInput,
    RegistrationError,
    Registry,
    ToolOutput,
)
from codemode import define_tool as _define

from .test_scoped import seen, tool

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
    from codemode._execution import ToolRunContext


# --- restrict ---------------------------------------------------------------------------------


def test_an_allow_list_masks_inherited_tools_but_not_the_scopes_own() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.register(tool("read"))
    registry.register(tool("bash"))
    registry.register(tool("capture"), agent=agent)
    registry.restrict(agent, allow=["read"])
    assert seen(registry, agent) == ["capture", "read"]
    assert registry.get("bash", agent) is None
    assert seen(registry) == ["bash", "read"]


def test_a_deny_list_admits_later_tools_and_an_allow_list_excludes_them() -> None:
    registry = Registry()
    denied, allowed = Agent("denied"), Agent("allowed")
    registry.register(tool("read"))
    registry.register(tool("bash"))
    registry.restrict(denied, deny=["bash"])
    registry.restrict(allowed, allow=["read"])
    registry.register(tool("web"))
    registry.register(tool("denied-local"), agent=denied)
    registry.register(tool("allowed-local"), agent=allowed)
    assert seen(registry, denied) == ["denied-local", "read", "web"]
    assert seen(registry, allowed) == ["allowed-local", "read"]


def test_restrictions_intersect_and_lift_independently() -> None:
    registry = Registry()
    agent = Agent("a")
    for name in ("a", "b", "c"):
        registry.register(tool(name))
    lift_allow = registry.restrict(agent, allow=["a", "b"])
    registry.restrict(agent, deny=["b"])
    assert seen(registry, agent) == ["a"]
    lift_allow()
    assert seen(registry, agent) == ["a", "c"]


def test_a_filter_is_copied_when_the_restriction_is_made() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.register(tool("a"))
    registry.register(tool("b"))
    deny = ["a"]
    registry.restrict(agent, deny=deny)
    deny.append("b")
    assert seen(registry, agent) == ["b"]


def test_restrict_without_a_scope_fails() -> None:
    registry = Registry()
    registry.register(tool("real"))
    with pytest.raises(RegistrationError, match=r"^restrict\(\) needs an agent scope"):
        registry.restrict(None, deny=["real"])


@pytest.mark.parametrize("filters", [{}, {"deny": []}, {"allow": [], "deny": []}])
def test_a_filter_that_names_no_tool_fails(filters: dict[str, Any]) -> None:
    registry = Registry()
    registry.register(tool("real"))
    with pytest.raises(RegistrationError, match=r"names no tool, so it would be a no-op"):
        registry.restrict(Agent("a"), **filters)


def test_naming_a_scopes_own_tool_in_its_restriction_fails() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.register(tool("real"))
    registry.register(tool("local"), agent=agent)
    expected = (
        "restrict() for Agent('a') names unknown inherited tool \"local\" (\"local\" is "
        "registered in this scope itself; a restriction names only the tools a scope "
        "inherits). Restrictable tools: real"
    )
    with pytest.raises(RegistrationError, match=f"^{re.escape(expected)}$"):
        registry.restrict(agent, allow=["local"])


def test_naming_unknown_tools_lists_what_can_be_restricted() -> None:
    registry = Registry()
    registry.register(tool("real"))
    with pytest.raises(
        RegistrationError,
        match=r'names unknown inherited tools "ghost", "wraith"\. Restrictable tools: real$',
    ):
        registry.restrict(Agent("a"), deny=["wraith", "ghost"])


def test_naming_a_tool_when_nothing_is_inherited_says_none_can_be_restricted() -> None:
    with pytest.raises(RegistrationError, match=r"Restrictable tools: \(none\)$"):
        Registry().restrict(Agent("a"), deny=["ghost"])


@pytest.mark.parametrize("filters", [{"allow": [RUN_CODE]}, {"deny": [RUN_CODE]}])
def test_run_code_cannot_be_restricted(filters: dict[str, Any]) -> None:
    registry = Registry(mode="code")
    with pytest.raises(RegistrationError, match=r'^"run_code" cannot be restricted'):
        registry.restrict(Agent("a"), **filters)


def test_a_single_string_filter_is_refused() -> None:
    registry = Registry()
    registry.register(tool("bash"))
    with pytest.raises(TypeError, match=r"deny must be a collection of tool names, not a str"):
        registry.restrict(Agent("a"), deny="bash")


def test_a_restriction_never_removes_run_code() -> None:
    registry = Registry(mode="both")
    registry.register(tool("read"))
    registry.install_run_code(tool(RUN_CODE))
    agent = Agent("a")
    registry.restrict(agent, allow=["read"])
    assert seen(registry, agent) == ["read", RUN_CODE]


def test_a_child_filters_tools_it_inherits_from_an_ancestor_scope() -> None:
    registry = Registry()
    parent = Agent("parent")
    child = Agent("child", parent=parent)
    registry.register(tool("bash"), agent=parent)
    registry.register(tool("read"), agent=parent)
    registry.restrict(child, deny=["bash"])
    assert seen(registry, child) == ["read"]
    assert seen(registry, parent) == ["bash", "read"]


def test_a_childs_own_registrations_stay_outside_its_filter() -> None:
    registry = Registry()
    parent = Agent("parent")
    child = Agent("child", parent=parent)
    registry.register(tool("bash"), agent=parent)
    registry.register(tool("read"), agent=parent)
    registry.register(tool("report"), agent=child)
    registry.restrict(child, allow=["read"])
    assert seen(registry, child) == ["read", "report"]


def test_an_ancestors_restriction_reaches_every_scope_nested_inside_it() -> None:
    registry = Registry()
    parent = Agent("parent")
    child = Agent("child", parent=parent)
    grandchild = Agent("grandchild", parent=child)
    registry.register(tool("web"))
    registry.register(tool("bash"), agent=parent)
    registry.restrict(parent, deny=["web"])
    assert seen(registry, child) == ["bash"]
    assert seen(registry, grandchild) == ["bash"]
    assert seen(registry, parent) == ["bash"]


def test_an_ancestors_allow_list_hides_the_ancestors_own_tools_from_nested_scopes() -> None:
    # A restriction is a security filter over everything a nested scope
    # inherits: a preset that keeps only "read" does not hand its own "bash"
    # to the agents that join it, though it keeps calling "bash" itself.
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.register(tool("read"))
    registry.register(tool("web"))
    registry.register(tool("bash"), agent=preset)
    registry.restrict(preset, allow=["read"])
    assert seen(registry, member) == ["read"]
    assert registry.get("bash", member) is None
    assert seen(registry, preset) == ["bash", "read"]


async def test_a_nested_scope_cannot_call_a_tool_its_ancestors_restriction_masks() -> None:
    ran: list[str] = []

    async def bash(args: Any, ctx: ToolRunContext) -> JsonValue:
        ran.append(ctx.call_id)
        return "ran"

    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.register(tool("read"))
    registry.register(
        _define(
            name="bash", description="run a command", parameters={"type": "object"},
            output=ToolOutput(schema={"type": "string"}), execute=bash,
        ),
        agent=preset,
    )
    registry.restrict(preset, allow=["read"])
    own = await registry.execute(CallInput("p1", "bash", {}, AbortSignal(), agent=preset))
    nested = await registry.execute(CallInput("m1", "bash", {}, AbortSignal(), agent=member))
    assert not own.is_error
    assert nested.is_error
    assert nested.error.info is not None
    assert nested.error.info.code == "UNKNOWN_TOOL"
    assert ran == ["p1"]


def test_a_nested_scopes_own_tool_stays_visible_under_an_ancestors_allow_list() -> None:
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.register(tool("read"))
    registry.register(tool("bash"), agent=preset)
    registry.register(tool("bash", description="the member's own"), agent=member)
    registry.restrict(preset, allow=["read"])
    assert seen(registry, member) == ["bash", "read"]
    own = registry.get("bash", member)
    assert own is not None
    assert own.description == "the member's own"


def test_an_intermediate_scopes_restriction_hides_its_own_tools_from_the_scope_below() -> None:
    registry = Registry()
    preset = Agent("preset")
    team = Agent("team", parent=preset)
    member = Agent("member", parent=team)
    registry.register(tool("read"))
    registry.register(tool("web"), agent=preset)
    registry.register(tool("report"), agent=team)
    registry.restrict(team, deny=["web"])
    registry.restrict(team, allow=["read", "web"])
    assert seen(registry, team) == ["read", "report"]
    assert seen(registry, member) == ["read"]


def test_an_ancestors_deny_masks_the_name_for_nested_scopes_whoever_registered_it() -> None:
    # Restrictions filter names: a nearer scope that registers a tool under a
    # name a farther ancestor denies keeps it for itself, not for its children.
    registry = Registry()
    preset = Agent("preset")
    team = Agent("team", parent=preset)
    member = Agent("member", parent=team)
    registry.register(tool("web"))
    registry.restrict(preset, deny=["web"])
    registry.register(tool("web", description="the team's own"), agent=team)
    assert seen(registry, preset) == []
    assert seen(registry, team) == ["web"]
    assert seen(registry, member) == []


def test_an_ancestors_shadowing_tool_passes_its_restriction_under_the_shadowed_name() -> None:
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.register(tool("read", description="global"))
    registry.register(tool("read", description="the preset's own"), agent=preset)
    registry.restrict(preset, allow=["read"])
    inherited = registry.get("read", member)
    assert inherited is not None
    assert inherited.description == "the preset's own"


def test_lifting_an_ancestors_restriction_hands_its_own_tools_down_again() -> None:
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.register(tool("read"))
    registry.register(tool("bash"), agent=preset)
    lift = registry.restrict(preset, allow=["read"])
    assert seen(registry, member) == ["read"]
    lift()
    assert seen(registry, member) == ["bash", "read"]


def test_a_restriction_and_its_lifting_notify_change_listeners() -> None:
    registry = Registry()
    registry.register(tool("bash"))
    heard: list[int] = []
    registry.on_change(lambda: heard.append(1))
    lift = registry.restrict(Agent("a"), deny=["bash"])
    lift()
    lift()
    assert heard == [1, 1]


def test_a_throwing_change_listener_rolls_a_restriction_back() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.register(tool("bash"))

    def listener() -> None:
        raise RuntimeError("no")

    dispose = registry.on_change(listener)
    with pytest.raises(RuntimeError):
        registry.restrict(agent, deny=["bash"])
    dispose()
    assert seen(registry, agent) == ["bash"]
