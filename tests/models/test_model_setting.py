"""The one model setting: ``embedded``, ``openai:<m>``, ``ollama:<m>``, ``anthropic:<m>``."""

from __future__ import annotations

import pytest

from citeline.models import ModelSpecError, resolve_model
from citeline.models.spec import DEFAULT_OLLAMA_BASE_URL


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "CITELINE_MODEL",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OLLAMA_BASE_URL",
        "ANTHROPIC_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_default_is_the_embedded_model_and_its_name_says_it_is_extractive() -> None:
    handle = resolve_model()
    assert handle.provider == "embedded"
    assert "extractive" in handle.name and "offline" in handle.name


def test_citeline_model_in_the_environment_selects_the_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CITELINE_MODEL", "ollama:llama3.1")
    handle = resolve_model()
    assert (handle.provider, handle.model_name) == ("ollama", "llama3.1")


def test_an_explicit_setting_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELINE_MODEL", "ollama:llama3.1")
    assert resolve_model("embedded").provider == "embedded"


def test_an_unknown_provider_is_a_value_error_that_lists_the_choices() -> None:
    with pytest.raises(ValueError) as caught:
        resolve_model("gpt-4o")
    assert isinstance(caught.value, ModelSpecError)
    message = str(caught.value)
    assert "embedded" in message and "openai:<model>" in message


def test_a_provider_without_a_model_name_says_how_to_write_it() -> None:
    with pytest.raises(ModelSpecError, match="openai:<model>"):
        resolve_model("openai:")


def test_openai_without_a_key_or_a_server_says_which_variable_to_set() -> None:
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        resolve_model("openai:gpt-4o-mini")


def test_an_openai_compatible_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
    handle = resolve_model("openai:qwen2.5")
    assert handle.base_url == "http://127.0.0.1:8080/v1"


def test_the_public_name_never_says_where_the_model_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://10.0.0.7:8080/v1")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://gpu-box.internal:11434/v1")
    assert resolve_model("openai:qwen2.5").name == "qwen2.5 (OpenAI-compatible)"
    assert resolve_model("ollama:llama3.1").name == "llama3.1 (Ollama)"
    assert resolve_model("ollama:llama3.1").base_url == "http://gpu-box.internal:11434/v1"


def test_max_tokens_rides_on_the_handle_and_must_be_positive() -> None:
    assert resolve_model("embedded").max_tokens is None
    assert resolve_model("embedded", max_tokens=512).max_tokens == 512
    with pytest.raises(ModelSpecError, match="max_tokens"):
        resolve_model("embedded", max_tokens=0)


def test_openai_with_a_key_talks_to_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    handle = resolve_model("openai:gpt-4o-mini")
    assert handle.base_url is None
    assert "sk-test" not in repr(handle)


def test_ollama_uses_its_default_address_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert resolve_model("ollama:llama3.1").base_url == DEFAULT_OLLAMA_BASE_URL
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://gpu-box:11434/v1")
    assert resolve_model("ollama:llama3.1").base_url == "http://gpu-box:11434/v1"


def test_anthropic_needs_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelSpecError, match="ANTHROPIC_API_KEY"):
        resolve_model("anthropic:claude-sonnet-4-5")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert resolve_model("anthropic:claude-sonnet-4-5").provider == "anthropic"
