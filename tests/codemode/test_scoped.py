"""Agent scopes: scoped registrations, presentation modes, and the whole view rule against a model.

Restrictions in detail are in ``test_restrictions.py``.
"""

from __future__ import annotations

import copy
import pickle
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from codemode import (
    RUN_CODE,
    Agent,
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
