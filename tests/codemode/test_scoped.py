"""Agent scopes: scoped registrations, restrictions, and per-scope presentation modes."""

from __future__ import annotations

import copy
import pickle
import re
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from codemode import (
    RUN_CODE,
    AbortSignal,
    Agent,
    CallInput,
    RegistrationError,
    Registry,
    ToolDefinition,
    ToolOutput,
)
from codemode import define_tool as _define

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
    from codemode._execution import ToolRunContext


def tool(name: str, reply: str | None = None, *, description: str | None = None) -> ToolDefinition:
    async def execute(args: Any, ctx: ToolRunContext) -> JsonValue:
        return reply if reply is not None else f"ran:{name}"

    return _define(
        name=name,
        description=description if description is not None else f"tool {name}",
        parameters={"type": "object", "properties": {}},
        output=ToolOutput(schema={"type": "string"}),
        execute=execute,
    )


def seen(registry: Registry, agent: Agent | None = None) -> list[str]:
    return sorted(s["name"] for s in registry.schemas(agent))


# --- agents -----------------------------------------------------------------------------------


def test_two_agents_with_the_same_name_are_different_scopes() -> None:
    registry = Registry()
    first, second = Agent("reviewer"), Agent("reviewer")
    registry.register(tool("mine"), agent=first)
    assert (seen(registry, first), seen(registry, second)) == (["mine"], [])


def test_an_agent_chain_runs_from_the_agent_to_the_root() -> None:
    root = Agent("root")
    mid = Agent("mid", parent=root)
    leaf = Agent("leaf", parent=mid)
    assert leaf.chain() == (leaf, mid, root)


def test_an_agent_is_immutable() -> None:
    agent = Agent("a")
    with pytest.raises(AttributeError, match="Agent is immutable"):
        agent.name = "b"


@pytest.mark.parametrize(("name", "parent"), [("", None), (3, None), ("a", "parent")])
def test_an_agent_needs_a_name_and_an_agent_parent(name: object, parent: object) -> None:
    with pytest.raises((TypeError, ValueError), match=r"Agent (name|parent) must"):
        Agent(name, parent=parent)  # type: ignore[arg-type]


# --- scoped registration ----------------------------------------------------------------------


def test_a_scoped_tool_is_visible_only_to_its_scope() -> None:
    registry = Registry()
    agent, other = Agent("a"), Agent("other")
    registry.register(tool("shared"))
    registry.register(tool("mine"), agent=agent)
    assert seen(registry, agent) == ["mine", "shared"]
    assert seen(registry) == ["shared"]
    assert seen(registry, other) == ["shared"]
    assert registry.get("mine", other) is None
    assert registry.get("mine") is None


@pytest.mark.parametrize("scoped_first", [True, False])
def test_a_scoped_tool_shadows_a_global_one_in_either_order(scoped_first: bool) -> None:
    registry = Registry()
    agent = Agent("a")
    scoped, global_ = tool("bash", "restricted"), tool("bash", "global")
    if scoped_first:
        registry.register(scoped, agent=agent)
        registry.register(global_)
    else:
        registry.register(global_)
        registry.register(scoped, agent=agent)
    assert registry.get("bash", agent) is scoped
    assert registry.get("bash") is global_
    assert [s["name"] for s in registry.schemas(agent)] == ["bash"]


def test_a_duplicate_name_in_one_scope_is_rejected() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.register(tool("y"), agent=agent)
    with pytest.raises(
        RegistrationError,
        match=r"^a tool named \"y\" is already registered in this scope \(Agent\('a'\)\); "
              r"dispose the first registration before registering another$",
    ):
        registry.register(tool("y"), agent=agent)


def test_disposing_a_scoped_registration_leaves_no_residue() -> None:
    registry = Registry()
    agent = Agent("a")
    dispose = registry.register(tool("mine"), agent=agent)
    dispose()
    assert registry.get("mine", agent) is None
    assert registry.schemas(agent) == []


def test_a_nested_scope_inherits_its_parents_tools() -> None:
    registry = Registry()
    parent = Agent("preset")
    child = Agent("worker", parent=parent)
    registry.register(tool("web"))
    registry.register(tool("bash"), agent=parent)
    registry.register(tool("report"), agent=child)
    assert seen(registry, child) == ["bash", "report", "web"]
    assert seen(registry, parent) == ["bash", "web"]


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


# --- present_as -------------------------------------------------------------------------------


def test_one_agent_uses_code_while_the_deployment_stays_native() -> None:
    registry = Registry()
    registry.register(tool("read"))
    registry.install_run_code(tool(RUN_CODE))
    coder, plain = Agent("coder"), Agent("plain")
    registry.present_as(coder, "code")
    assert (registry.mode_of(coder), registry.mode_of(plain)) == ("code", "native")
    assert [s["name"] for s in registry.wire_schemas(coder)] == [RUN_CODE]
    assert [s["name"] for s in registry.wire_schemas(plain)] == ["read"]


def test_a_presets_mode_is_inherited_down_the_chain_but_not_by_neighbours() -> None:
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    neighbour = Agent("neighbour")
    registry.present_as(preset, "both")
    assert (registry.mode_of(member), registry.mode_of(neighbour)) == ("both", "native")


def test_the_nearest_declaration_wins() -> None:
    registry = Registry()
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry.present_as(preset, "code")
    registry.present_as(member, "native")
    assert registry.mode_of(member) == "native"


def test_a_native_agent_never_sees_run_code() -> None:
    registry = Registry()
    registry.install_run_code(tool(RUN_CODE))
    coder, plain = Agent("coder"), Agent("plain")
    registry.present_as(coder, "code")
    assert registry.get(RUN_CODE, plain) is None
    assert RUN_CODE not in registry._visible(plain)


def test_an_agent_can_opt_out_of_a_code_mode_deployment() -> None:
    registry = Registry(mode="code")
    registry.register(tool("read"))
    registry.install_run_code(tool(RUN_CODE))
    agent = Agent("a")
    registry.present_as(agent, "native")
    assert [s["name"] for s in registry.wire_schemas(agent)] == ["read"]


def test_disposing_a_declaration_restores_the_default() -> None:
    registry = Registry(mode="both")
    agent = Agent("a")
    dispose = registry.present_as(agent, "code")
    dispose()
    assert registry.mode_of(agent) == "both"


def test_an_old_disposer_does_not_remove_a_later_declaration() -> None:
    registry = Registry()
    agent = Agent("a")
    dispose = registry.present_as(agent, "code")
    dispose()
    registry.present_as(agent, "both")
    dispose()
    assert registry.mode_of(agent) == "both"


def test_a_second_declaration_on_one_scope_is_refused() -> None:
    registry = Registry()
    agent = Agent("a")
    registry.present_as(agent, "code")
    with pytest.raises(RegistrationError, match=r"already presents its tools as 'code'"):
        registry.present_as(agent, "both")


def test_an_unscoped_declaration_is_refused() -> None:
    with pytest.raises(RegistrationError, match=r"^present_as\(\) needs an agent scope"):
        Registry().present_as(None, "code")


def test_an_unknown_mode_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match=r"mode='ptc'"):
        Registry().present_as(Agent("a"), "ptc")  # type: ignore[arg-type]


def test_run_code_is_reserved_even_when_nobody_presents_it() -> None:
    registry = Registry()
    with pytest.raises(RegistrationError, match="reserved"):
        registry.register(tool(RUN_CODE), agent=Agent("a"))


def test_scoped_registrations_reach_the_model_under_both_but_not_under_code() -> None:
    registry = Registry()
    registry.install_run_code(tool(RUN_CODE))
    coder, mixed = Agent("coder"), Agent("mixed")
    registry.register(tool("mine"), agent=coder)
    registry.register(tool("mine"), agent=mixed)
    registry.present_as(coder, "code")
    registry.present_as(mixed, "both")
    assert [s["name"] for s in registry.wire_schemas(coder)] == [RUN_CODE]
    assert [s["name"] for s in registry.wire_schemas(mixed)] == ["mine", RUN_CODE]
    assert seen(registry, coder) == ["mine", RUN_CODE]


# --- the view rule, against a model -----------------------------------------------------------

_NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f"])


@given(
    globals_=st.sets(_NAMES),
    parent_own=st.sets(_NAMES),
    child_own=st.sets(_NAMES),
    parent_deny=st.sets(_NAMES),
    parent_allow=st.none() | st.sets(_NAMES, min_size=1),
    child_allow=st.none() | st.sets(_NAMES, min_size=1),
)
def test_a_nested_view_is_its_inheritance_filtered_by_the_whole_chain_plus_its_own(
    globals_: set[str],
    parent_own: set[str],
    child_own: set[str],
    parent_deny: set[str],
    parent_allow: set[str] | None,
    child_allow: set[str] | None,
) -> None:
    registry = Registry()
    parent = Agent("parent")
    child = Agent("child", parent=parent)
    for name in sorted(globals_):
        registry.register(tool(name, description=f"global:{name}"))
    for name in sorted(parent_own):
        registry.register(tool(name, description=f"parent:{name}"), agent=parent)
    for name in sorted(child_own):
        registry.register(tool(name, description=f"child:{name}"), agent=child)
    parent_deny &= globals_
    if parent_deny:
        registry.restrict(parent, deny=parent_deny)
    if parent_allow is not None:
        parent_allow &= globals_
        if parent_allow:
            registry.restrict(parent, allow=parent_allow)
        else:
            parent_allow = None
    inherited_by_child = globals_ | parent_own
    if child_allow is not None:
        child_allow &= inherited_by_child
        if child_allow:
            registry.restrict(child, allow=child_allow)
        else:
            child_allow = None

    # The model: a scope inherits the global layer and its ancestors' own
    # tools (the nearer shadowing), keeps the names every restriction on its
    # chain admits, then adds its own.
    def parent_admits(n: str) -> bool:
        return n not in parent_deny and (parent_allow is None or n in parent_allow)

    inherited = {n: f"global:{n}" for n in globals_}
    inherited.update({n: f"parent:{n}" for n in parent_own})
    child_view = {
        n: origin
        for n, origin in inherited.items()
        if parent_admits(n) and (child_allow is None or n in child_allow)
    }
    child_view.update({n: f"child:{n}" for n in child_own})

    actual = {n: d.description for n, d in registry._visible(child).items()}
    assert actual == child_view


def test_a_change_listener_already_sees_the_change() -> None:
    registry = Registry()
    agent = Agent("a")
    registry._visible(agent)  # a view taken before the change
    views: list[list[str]] = []
    registry.on_change(lambda: views.append(seen(registry, agent)))
    registry.register(tool("new"))
    assert views == [["new"]]


class RegistryMachine(RuleBasedStateMachine):
    """Random registrations, restrictions and modes against a plain model of the view rule."""

    def __init__(self) -> None:
        super().__init__()
        self.registry = Registry()
        self.registry.install_run_code(tool(RUN_CODE))
        self.parent = Agent("parent")
        self.child = Agent("child", parent=self.parent)
        self.scopes: list[Agent | None] = [None, self.parent, self.child]
        # The model: registrations, restrictions and modes as plain data.
        self.layers: dict[Agent | None, dict[str, tuple[ToolDefinition, Any]]] = {
            s: {} for s in self.scopes
        }
        self.restrictions: dict[Agent, list[tuple[set[str] | None, set[str], Any]]] = {
            self.parent: [], self.child: []
        }
        self.modes: dict[Agent, tuple[str, Any]] = {}

    @rule(scope=st.integers(0, 2), name=_NAMES)
    def register(self, scope: int, name: str) -> None:
        agent = self.scopes[scope]
        if name in self.layers[agent]:
            return
        definition = tool(name, description=f"{scope}:{name}")
        self.layers[agent][name] = (definition, self.registry.register(definition, agent=agent))

    @rule(scope=st.integers(0, 2), name=_NAMES)
    def dispose(self, scope: int, name: str) -> None:
        entry = self.layers[self.scopes[scope]].pop(name, None)
        if entry is not None:
            entry[1]()

    @rule(scope=st.integers(1, 2), names=st.sets(_NAMES, min_size=1), allow=st.booleans())
    def restrict(self, scope: int, names: set[str], allow: bool) -> None:
        agent = self.scopes[scope]
        assert agent is not None
        inheritable = set(self.layers[None])
        if agent is self.child:
            inheritable |= set(self.layers[self.parent])
        names &= inheritable
        if not names:
            return
        lift = self.registry.restrict(agent, **({"allow": names} if allow else {"deny": names}))
        self.restrictions[agent].append((names if allow else None, set() if allow else names,
                                         lift))

    @rule(scope=st.integers(1, 2), index=st.integers(0, 3))
    def lift(self, scope: int, index: int) -> None:
        agent = self.scopes[scope]
        assert agent is not None
        held = self.restrictions[agent]
        if index < len(held):
            held.pop(index)[2]()

    @rule(scope=st.integers(1, 2), mode=st.sampled_from(["native", "code", "both"]))
    def present(self, scope: int, mode: Any) -> None:
        agent = self.scopes[scope]
        assert agent is not None
        previous = self.modes.pop(agent, None)
        if previous is not None:
            previous[1]()
        self.modes[agent] = (mode, self.registry.present_as(agent, mode))

    def expected(self, agent: Agent | None) -> dict[str, str]:
        chain = [] if agent is None else list(reversed(agent.chain()))
        view = {n: d.description for n, (d, _) in self.layers[None].items()}
        for scope in chain[:-1]:  # the ancestors, farthest first: a nearer one shadows
            view.update({n: d.description for n, (d, _) in self.layers[scope].items()})
        for scope in chain:  # every restriction on the chain masks what is inherited
            for allow, deny, _ in self.restrictions[scope]:
                view = {n: d for n, d in view.items()
                        if n not in deny and (allow is None or n in allow)}
        if chain:
            view.update({n: d.description for n, (d, _) in self.layers[chain[-1]].items()})
        mode = next((self.modes[s][0] for s in reversed(chain) if s in self.modes), "native")
        if mode != "native":
            view[RUN_CODE] = f"tool {RUN_CODE}"
        return view

    @invariant()
    def every_scope_sees_what_the_model_says(self) -> None:
        for agent in self.scopes:
            actual = {n: d.description for n, d in self.registry._visible(agent).items()}
            assert actual == self.expected(agent)


TestRegistryMachine = RegistryMachine.TestCase


def test_copying_an_agent_keeps_the_same_scope() -> None:
    agent = Agent("a", parent=Agent("p"))
    holder = {"agent": agent}
    assert copy.copy(agent) is agent
    assert copy.deepcopy(holder)["agent"] is agent


def test_an_agent_cannot_be_pickled() -> None:
    with pytest.raises(TypeError, match=r"^Agent\('a'\) is an in-process scope identity"):
        pickle.dumps(Agent("a"))
