"""Agents by label: NAME=SPEC or a bare spec, labels Dagster and folders can hold, duplicates refused."""

from __future__ import annotations

import re

import pytest

from nabahan_pipeline.agents.labels import (
    LabelledAgent, check_spec, folder_name, labelled_agent, labelled_agents, resolve_run,
)
from nabahan_pipeline.errors import AgentSpecError, NabahanError


@pytest.mark.parametrize(
    ("text", "label", "spec"),
    [
        ("embedded", "embedded", "embedded"),
        ("ref=embedded", "ref", "embedded"),
        (" v2 = http://127.0.0.1:8000/ask ", "v2", "http://127.0.0.1:8000/ask"),
        ("http://host/ask?model=x", "http://host/ask?model=x", "http://host/ask?model=x"),  # a spec's own '='
        ("python:pkg.mod:answer", "python:pkg.mod:answer", "python:pkg.mod:answer"),
        ("نموذج=openai:gpt-4o", "نموذج", "openai:gpt-4o"),
        ("mine=python:m:f=1", "mine", "python:m:f=1"),
    ],
)
def test_a_label_is_the_name_before_the_first_equals_sign_else_the_spec(text: str, label: str, spec: str):
    assert labelled_agent(text, "3") == LabelledAgent(label, spec, "3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("=embedded", "the label before '=' is empty"),
        ("v2=", "no agent spec after '='"),
        ("a,b=embedded", "may not hold ','"),
        ("a...b=embedded", "may not hold '...'"),
        ("a\tb=embedded", "U+0009"),
        ("x" * 201 + "=embedded", "at most 200 characters"),
    ],
)
def test_a_label_dagster_or_the_ui_could_not_hold_is_a_user_error(text: str, message: str):
    with pytest.raises(AgentSpecError, match=re.escape(message)) as info:
        labelled_agent(text)
    assert isinstance(info.value, NabahanError) and "\n" not in str(info.value)


def test_two_agents_of_one_label_are_refused_naming_both():
    with pytest.raises(AgentSpecError) as info:
        labelled_agents(["x=embedded", "embedded", "x=python:m:f"])
    assert str(info.value) == ("--agent 'x=embedded' and --agent 'x=python:m:f' are both labelled 'x'; "
                               "give each its own: --agent NAME=SPEC")
    with pytest.raises(AgentSpecError, match="both labelled 'embedded'"):
        labelled_agents(["embedded", "embedded"])
    assert [agent.label for agent in labelled_agents(["embedded", "ref=embedded"])] == ["embedded", "ref"]


@pytest.mark.parametrize(
    ("label", "plain"),
    [("embedded", "embedded"), ("v2.1-rc", "v2.1-rc"), ("نموذج", "نموذج"), ("http://127.0.0.1:8000/ask", None),
     ("..", None), ("a/b", None), ("a_b", "a_b")],
)
def test_folder_names_are_safe_and_never_shared(label: str, plain: str | None):
    name = folder_name(label)
    assert "/" not in name and name not in ("", ".", "..")
    if plain is not None:
        assert name == plain
    else:
        assert name != label and len(name.rsplit("-", 1)[1]) == 8
    assert folder_name("a/b") != folder_name("a_b") and folder_name("a/b") != folder_name("a:b")


def test_each_agent_ends_with_its_token_variable_said(monkeypatch: pytest.MonkeyPatch):
    for name in ("NABAHAN_AGENT", "NABAHAN_AGENT_TOKEN_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("A_TOKEN", "tk-a-Ws8Ed3Rf6")
    settings, (alone,) = resolve_run({}, ["http://h/ask"])
    assert alone.token_env == settings.agent_token_env == "NABAHAN_AGENT_TOKEN", "the only agent: the default"
    assert resolve_run({"agent_token_env": "A_TOKEN"}, ["http://h/ask"])[1][0].token_env == "A_TOKEN"
    _, agents = resolve_run({"agent_token_env": ["a=A_TOKEN"]},
                            ["a=http://h/a", "b=http://h/b", "c=openai:m", "embedded"])
    assert [agent.token_env for agent in agents] == ["A_TOKEN", "none", None, None], \
        "of several, an HTTP agent named by no --agent-token gets none; an OpenAI one its kind's key"
    monkeypatch.setenv("NABAHAN_AGENT", "http://h/ask")
    assert resolve_run({}, [])[1][0].token_env == "NABAHAN_AGENT_TOKEN"


@pytest.mark.parametrize(("tokens", "message"), [
    (["A_TOKEN"], "--agent-token without a label, with 2 agents"),
    (["c=A_TOKEN"], "no agent labelled 'c'"),
    (["a=A_TOKEN", "a=A_TOKEN"], "two variables for 'a'"),
    (["a=sk-Lk8Mj5Nh2Bg7"], "not the name of an environment variable"),
    (["a=NOT_SET_ANYWHERE"], "$NOT_SET_ANYWHERE is not set"),
])
def test_a_bad_token_variable_is_one_line_that_repeats_no_value(
    tokens: list[str], message: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("A_TOKEN", "tk-a-Ws8Ed3Rf6")
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    with pytest.raises(AgentSpecError, match=re.escape(message)) as info:
        resolve_run({"agent_token_env": tokens}, ["a=http://h/a", "b=http://h/b"])
    assert "Lk8Mj5" not in str(info.value) and "\n" not in str(info.value)


def test_a_spec_holding_a_credential_is_refused_without_repeating_it():
    with pytest.raises(AgentSpecError, match=re.escape("'http://h/ask?lang=ar&api_key=***'")) as info:
        labelled_agent("mine=http://h/ask?lang=ar&api_key=Zx9Cv8Bn7")
    assert "Zx9Cv8Bn7" not in str(info.value) and "--agent-token" in str(info.value)
    assert check_spec("http://h/ask?lang=ar") == "http://h/ask?lang=ar"


def test_a_label_is_measured_in_bytes_as_a_folder_name_is() -> None:
    assert labelled_agent("ن" * 127 + "=embedded").label == "ن" * 127  # 254 bytes
    with pytest.raises(AgentSpecError, match="at most 255 bytes in UTF-8 \\(this one 256"):
        labelled_agent("ن" * 128 + "=embedded")
