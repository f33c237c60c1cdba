"""BashAgent: a Harbor agent that solves a task through one persistent Bash.

The loop runs in Go (lib/agent): it calls an OpenAI-compatible
``/chat/completions`` endpoint with a single ``Bash`` tool and runs the calls
in the environment's shell session. This class only passes Harbor's
arguments across and fills Harbor's AgentContext. The model's credentials
stay in this process: they are sent to the endpoint and nowhere else.

Job YAML::

    agents:
      - import_path: shellbox.agent:BashAgent
        model_name: openai/my-model
        kwargs: {base_url: "http://127.0.0.1:8000/v1", api_key: "...", max_turns: 20}
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from harbor.agents.agent_auth_resolution import ResolvedModelConnection
from harbor.agents.base import BaseAgent
from harbor.agents.capabilities import AgentCapabilities
from harbor.environments.base import BaseEnvironment
from harbor.models.agent.context import AgentContext

from shellbox import _go, _wire
from shellbox.machine import BashSessionProvider

try:  # a Harbor that defines a turn-cap error gets its own class raised
    from harbor.agents.base import TurnCapExhaustedError  # type: ignore[attr-defined]
except ImportError:

    class TurnCapExhaustedError(RuntimeError):  # type: ignore[no-redef]
        """The agent was still calling tools when it reached max_turns."""


__all__ = ["BashAgent", "TurnCapExhaustedError", "AgentEndpointError"]


class AgentEndpointError(RuntimeError):
    """The chat-completions endpoint answered with an HTTP error."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class BashAgent(BaseAgent):
    """Solves a task with one ``Bash`` tool on the environment's persistent
    shell (the environment must implement ``open_bash_session()``)."""

    # base_url is this agent's own option (Harbor validates it against this flag).
    capabilities = AgentCapabilities(base_url=True)

    def __init__(
        self,
        *args: Any,
        base_url: str | None = None,
        api_key: str = "unused",
        max_turns: int = 20,
        system_prompt: str | None = None,
        **kwargs: Any,
    ):
        if not base_url:
            raise ValueError("BashAgent needs base_url, the OpenAI-compatible endpoint (e.g. http://host:8000/v1)")
        if int(max_turns) <= 0:
            raise ValueError("max_turns must be positive")
        self._endpoint = str(base_url)
        self._api_key = str(api_key)
        self._max_turns = int(max_turns)
        self._system_prompt = system_prompt or ""
        self._session: Any = None
        super().__init__(*args, **kwargs)

    @classmethod
    def resolve_model_connection_config(
        cls, model_name: str | None, resolve_env: Any, **options: Any
    ) -> ResolvedModelConnection:
        # The endpoint is this agent's own base_url, called from this process:
        # Harbor has no provider credentials to find or route for it.
        base_url = options.get("base_url")
        return ResolvedModelConnection(
            can_configure_base_url=True, user_supplied_base_url=base_url, resolved_base_url=base_url
        )

    @staticmethod
    def name() -> str:
        return "shellbox-bash"

    def version(self) -> str:
        return "0.1.0"

    async def setup(self, environment: BaseEnvironment) -> None:
        if not isinstance(environment, BashSessionProvider):
            raise TypeError(
                f"BashAgent needs an environment with open_bash_session(); {type(environment).__name__} has none"
            )
        session = await environment.open_bash_session()
        if not isinstance(getattr(session, "handle", None), int):
            raise TypeError("BashAgent needs a Go-backed shell session (shellbox.harbor_support.GoShellSession)")
        self._session = session

    async def run(self, instruction: str, environment: BaseEnvironment, context: AgentContext) -> None:
        if self._session is None:
            await self.setup(environment)
        if not self.model_name:
            raise ValueError("BashAgent needs a model name (harbor run -m ...)")
        request = _wire.RunAgentRequest(
            self._session.handle,
            self._endpoint,
            self._api_key,
            self.model_name,
            self._max_turns,
            instruction,
            self._system_prompt,
        )
        try:
            reply = await _go.call(0, _wire.ROOT_RUN_AGENT, request)
        except asyncio.CancelledError:
            # Harbor's agent timeout: record what the run did before it stopped.
            self._fill(context, _go.call_sync(self._session.handle, _wire.SHELL_AGENT_PROGRESS).header)
            raise
        result: _wire.RunAgentReply = reply.header
        self._fill(context, result)
        self._write_log(result)
        error = result.error
        if error:
            if error.kind == _wire.AgentErrorKind.TURN_CAP_EXHAUSTED:
                raise TurnCapExhaustedError(error.message)
            if error.kind == _wire.AgentErrorKind.HTTP_ERROR:
                raise AgentEndpointError(error.message, error.status)
            raise _go.exception(_wire.Error(error.kind, error.message))

    def _fill(self, context: AgentContext, result: _wire.AgentResult | _wire.RunAgentReply | None) -> None:
        if not result:
            return
        context.n_input_tokens = (context.n_input_tokens or 0) + result.n_input_tokens
        context.n_output_tokens = (context.n_output_tokens or 0) + result.n_output_tokens
        context.metadata = {
            **(context.metadata or {}),
            "final_message": result.final_message,
            "tool_calls": result.tool_calls,
            "turns": result.turns,
            "shell_mode": getattr(self._session, "mode", None),
        }

    def _write_log(self, result: _wire.RunAgentReply) -> None:
        try:
            self.logs_dir.mkdir(parents=True, exist_ok=True)
            (self.logs_dir / "bash-agent.json").write_text(json.dumps(result.to_json(), indent=1))
        except OSError as error:
            self.logger.warning("could not write the BashAgent log: %s", error)
