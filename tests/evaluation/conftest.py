"""Fixtures for the evaluation tests: the agent tests' scripted OpenAI-protocol server (the
same fixture, imported from there rather than copied), which stands in for a real provider."""

from __future__ import annotations

from ..agent.conftest import openai_server

__all__ = ["openai_server"]
