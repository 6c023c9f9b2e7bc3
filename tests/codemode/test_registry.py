"""The registry's global layer: registration lifecycle, schemas, modes and change listeners."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

import pytest

from codemode import (
    RUN_CODE,
    Agent,
    RegistrationError,
    Registry,
    ToolDefinition,
    ToolOutput,
    define_tool,
)
from codemode._execution import CallInput, ToolRunContext
from codemode._hooks import HOOK_KINDS
from codemode._results import TextBlock, ToolSuccess
from codemode._signal import AbortSignal

if TYPE_CHECKING:
    from bridge.lossless import JsonValue


async def _reply(args: Any, ctx: ToolRunContext) -> JsonValue:
    return "ok"


def raw(name: str, **overrides: Any) -> ToolDefinition:
    fields: dict[str, Any] = {
        "name": name,
        "description": f"tool {name}",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
        "output": ToolOutput(schema={"type": "string"}),
        "execute": _reply,
    }
    fields.update(overrides)
    return define_tool(**fields)


def names(schemas: list[Any]) -> list[str]:
    return [s["name"] for s in schemas]


def run_code() -> ToolDefinition:
    return raw(RUN_CODE, description="Run a Python program.")


# --- registry basics --------------------------------------------------------------------------


def test_schemas_hold_name_description_and_parameters_and_nothing_else() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    assert registry.schemas() == [{
        "name": "echo",
        "description": "tool echo",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    }]


def test_no_host_only_field_can_reach_a_schema() -> None:
    # Every field of ToolDefinition is set; the projection is an allow-list,
    # so a field added later cannot leak either.
    definition = raw(
        "full",
        output=ToolOutput(schema={"type": "string"}, presentation_meta=lambda a, v: {"m": 1}),
        finalize_content=lambda execution, result: None,
        timeout=5.0,
        is_concurrency_safe=lambda args: True,
        present_call=lambda args: {"card": "generic", "title": "t"},
        present_result=lambda args, result: None,
    )
    host_only = {f.name for f in dataclasses.fields(ToolDefinition)} - {
        "name", "description", "parameters"
    }
    assert all(getattr(definition, f) is not None for f in host_only)
    registry = Registry()
    registry.register(definition)
    (schema,) = registry.schemas()
    assert set(schema) == {"name", "description", "parameters"}
    assert not host_only & set(schema["parameters"])


def test_schemas_are_detached_deep_copies() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    first = registry.schemas()
    properties: Any = first[0]["parameters"]["properties"]
    properties["mutated"] = {"type": "string"}
    first[0]["description"] = "mutated"
    assert registry.schemas()[0] == {
        "name": "echo",
        "description": "tool echo",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    }


def test_schemas_copy_a_deep_schema_whole() -> None:
    nested: dict[str, Any] = {"type": "string"}
    for _ in range(200):
        nested = {"oneOf": [nested, {"type": "null"}]}
    registry = Registry()
    registry.register(raw("deep", parameters={"type": "object", "properties": {"n": nested}}))
    assert registry.schemas()[0]["parameters"]["properties"] == {"n": nested}


def test_get_returns_the_registered_definition() -> None:
    registry = Registry()
    definition = raw("echo")
    registry.register(definition)
    assert registry.get("echo") is definition


def test_get_returns_none_for_an_unknown_name() -> None:
    assert Registry().get("nope") is None


def test_native_is_the_default_mode() -> None:
    assert Registry().mode_of() == "native"


def test_max_parallel_sub_calls_defaults_to_ten() -> None:
    assert Registry().max_parallel_sub_calls == 10


@pytest.mark.parametrize("value", [0, -1, 2.0, True, "3"])
def test_max_parallel_sub_calls_must_be_a_positive_int(value: object) -> None:
    with pytest.raises(ValueError, match=re.escape(f"max_parallel_sub_calls={value!r}")):
        Registry(max_parallel_sub_calls=value)  # type: ignore[arg-type]


def test_an_unknown_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"^mode must be one of 'native', 'code', 'both', got "
                                         r"mode='ptc'$"):
        Registry(mode="ptc")  # type: ignore[arg-type]


def test_register_takes_only_tool_definitions() -> None:
    with pytest.raises(TypeError, match="register\\(\\) takes a ToolDefinition"):
        Registry().register({"name": "echo"})  # type: ignore[arg-type]


# --- registration lifecycle -------------------------------------------------------------------


def test_register_returns_a_disposer_that_unregisters_the_tool() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    dispose = registry.register(raw("disposable"))
    assert names(registry.schemas()) == ["echo", "disposable"]
    dispose()
    assert names(registry.schemas()) == ["echo"]


def test_a_disposer_removes_exactly_its_own_registration() -> None:
    registry = Registry()
    dispose_first = registry.register(raw("echo"))
    dispose_first()
    second = raw("echo")
    registry.register(second)
    dispose_first()
    assert registry.get("echo") is second


def test_a_duplicate_global_name_is_rejected() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    with pytest.raises(
        RegistrationError,
        match=r'^a tool named "echo" is already registered globally; dispose the first '
              r"registration, or register the other one in an agent scope",
    ):
        registry.register(raw("echo"))


@pytest.mark.parametrize("mode", ["native", "code", "both"])
@pytest.mark.parametrize("scoped", [False, True])
def test_run_code_cannot_be_registered_in_any_mode(mode: Any, scoped: bool) -> None:
    registry = Registry(mode=mode)
    agent = Agent("a") if scoped else None
    with pytest.raises(RegistrationError, match=r'^the tool name "run_code" is reserved'):
        registry.register(run_code(), agent=agent)


def test_a_change_listener_hears_registration_and_disposal() -> None:
    registry = Registry()
    heard: list[str] = []
    registry.on_change(lambda: heard.append("change"))
    dispose = registry.register(raw("echo"))
    dispose()
    dispose()  # a second call changes nothing and notifies nobody
    assert heard == ["change", "change"]


def test_a_throwing_change_listener_rolls_the_registration_back() -> None:
    registry = Registry()
    threw: list[bool] = []

    def listener() -> None:
        if not threw:
            threw.append(True)
            raise RuntimeError("boom change listener")

    registry.on_change(listener)
    with pytest.raises(RuntimeError, match="boom change listener"):
        registry.register(raw("echo"))
    assert registry.get("echo") is None
    assert registry.schemas() == []
    dispose = registry.register(raw("echo"))
    assert names(registry.schemas()) == ["echo"]
    dispose()
    assert registry.get("echo") is None


def test_a_disposed_change_listener_hears_nothing_more() -> None:
    registry = Registry()
    heard: list[int] = []
    dispose = registry.on_change(lambda: heard.append(1))
    dispose()
    registry.register(raw("echo"))
    assert heard == []


def test_disposing_one_of_two_identical_listeners_keeps_the_other() -> None:
    registry = Registry()
    heard: list[int] = []

    def listener() -> None:
        heard.append(1)

    dispose = registry.on_change(listener)
    registry.on_change(listener)
    dispose()
    registry.register(raw("echo"))
    assert heard == [1]


# --- run_code and modes -----------------------------------------------------------------------


def test_install_run_code_takes_only_the_run_code_name() -> None:
    with pytest.raises(RegistrationError, match=r"install_run_code\(\) takes the \"run_code\""):
        Registry().install_run_code(raw("echo"))


def test_a_second_run_code_install_is_rejected() -> None:
    registry = Registry()
    registry.install_run_code(run_code())
    with pytest.raises(RegistrationError, match=r'a "run_code" tool is already installed'):
        registry.install_run_code(run_code())


def test_run_code_is_visible_only_where_the_mode_is_not_native() -> None:
    registry = Registry()
    definition = run_code()
    registry.install_run_code(definition)
    agent = Agent("coder")
    registry.present_as(agent, "code")
    assert registry.get(RUN_CODE) is None
    assert registry.get(RUN_CODE, agent) is definition


def test_schemas_include_run_code_where_the_mode_is_not_native() -> None:
    registry = Registry(mode="code")
    registry.register(raw("echo"))
    registry.install_run_code(run_code())
    assert names(registry.schemas()) == ["echo", RUN_CODE]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("native", ["echo", "read"]), ("code", [RUN_CODE]), ("both", ["echo", "read", RUN_CODE])],
)
def test_wire_schemas_follow_the_mode(mode: Any, expected: list[str]) -> None:
    registry = Registry(mode=mode)
    registry.register(raw("echo"))
    registry.install_run_code(run_code())
    registry.register(raw("read"))
    assert names(registry.wire_schemas()) == expected


def test_uninstalling_run_code_removes_it_everywhere() -> None:
    registry = Registry(mode="both")
    registry.register(raw("echo"))
    dispose = registry.install_run_code(run_code())
    dispose()
    assert registry.get(RUN_CODE) is None
    assert names(registry.schemas()) == ["echo"]


@pytest.mark.parametrize("mode", ["code", "both"])
def test_wire_schemas_refuse_a_code_mode_scope_without_run_code(mode: Any) -> None:
    registry = Registry(mode=mode)
    registry.register(raw("echo"))
    expected = (
        f"wire_schemas() for the global scope: its mode is {mode!r}, which needs the "
        '"run_code" tool, and none is installed; start Code Mode first '
        "(`async with CodeMode(registry) as code_mode:`) and build the model's tool list "
        'inside it, or present this scope as "native"'
    )
    with pytest.raises(RegistrationError, match=f"^{re.escape(expected)}$"):
        registry.wire_schemas()


def test_wire_schemas_name_the_scope_whose_mode_needs_run_code() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    coder = Agent("coder")
    registry.present_as(coder, "both")
    assert names(registry.wire_schemas()) == ["echo"]
    expected = r"^wire_schemas\(\) for Agent\('coder'\): its mode is 'both'"
    with pytest.raises(RegistrationError, match=expected):
        registry.wire_schemas(coder)


@pytest.mark.parametrize("mode", ["code", "both"])
def test_schemas_and_get_stay_lenient_without_run_code(mode: Any) -> None:
    registry = Registry(mode=mode)
    registry.register(raw("echo"))
    assert names(registry.schemas()) == ["echo"]
    assert registry.get("echo") is not None
    assert registry.get(RUN_CODE) is None


def test_a_throwing_change_listener_rolls_the_run_code_install_back() -> None:
    registry = Registry(mode="code")

    def listener() -> None:
        raise RuntimeError("no")

    dispose = registry.on_change(listener)
    with pytest.raises(RuntimeError):
        registry.install_run_code(run_code())
    dispose()
    assert registry.get(RUN_CODE) is None
    registry.install_run_code(run_code())
    assert registry.get(RUN_CODE) is not None


# --- hooks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "kind"),
    [("pre_execute", "pre_execute"), ("guard", "guard"), ("around", "around"),
     ("post_execute", "post_execute"), ("on_result", "result"),
     ("on_code_dispatch_log", "code_dispatch_log")],
)
def test_each_hook_method_adds_to_its_kind_and_returns_the_disposer(
    method: str, kind: Any
) -> None:
    assert kind in HOOK_KINDS
    registry = Registry()
    agent = Agent("a")

    def listener(*args: object) -> None:
        return None

    before = registry.hooks.listeners(kind, agent)
    dispose = getattr(registry, method)(listener, agent)
    assert registry.hooks.listeners(kind, agent) == (*before, listener)
    assert listener not in registry.hooks.listeners(kind, None)
    dispose()
    assert registry.hooks.listeners(kind, agent) == before


async def test_execute_runs_a_call_through_the_pipeline_and_returns_its_content() -> None:
    registry = Registry()
    registry.register(raw("echo"))
    result = await registry.execute(CallInput("c1", "echo", {"text": "hi"}, AbortSignal()))
    assert isinstance(result, ToolSuccess)
    assert (result.value, result.content) == ("ok", (TextBlock(text="ok"),))


def test_the_default_mode_is_read_only() -> None:
    registry = Registry(mode="code")
    with pytest.raises(AttributeError):
        registry.mode = "native"  # type: ignore[misc]
    assert registry.mode == "code"


def test_a_hook_added_first_goes_before_the_others() -> None:
    registry = Registry()

    def early(*args: object) -> None:
        return None

    def late(*args: object) -> None:
        return None

    registry.post_execute(late)
    registry.post_execute(early, first=True)
    assert registry.hooks.listeners("post_execute", None)[:2] == (early, late)
