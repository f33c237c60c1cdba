"""A deterministic OpenAI-compatible chat-completions server on loopback:
it answers each request with the next scripted step and records what it
was sent."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Step = Callable[[dict[str, Any]], dict[str, Any]]


def tool_call(arguments: dict[str, Any], name: str = "Bash", call_id: str = "call") -> dict[str, Any]:
    return {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                    ],
                }
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10},
    }


def final(text: str) -> dict[str, Any]:
    return {
        "choices": [{"message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10},
    }


def last_tool_result(request: dict[str, Any]) -> dict[str, Any]:
    message = request["messages"][-1]
    assert message["role"] == "tool", message
    return json.loads(message["content"])


class FakeOpenAI:
    """Serves steps in order; a step is a response dict or a function of the request."""

    def __init__(self, steps: list[dict[str, Any] | Step], repeat_last: bool = False):
        self.steps = steps
        self.repeat_last = repeat_last
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                status, answer = fake._answer(self.path, dict(self.headers), body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _answer(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            if path != "/v1/chat/completions":
                return 404, {"error": f"no route {path}"}
            self.requests.append(body)
            self.headers.append(headers)
            index = len(self.requests) - 1
            if index >= len(self.steps):
                if not self.repeat_last:
                    return 500, {"error": "script exhausted"}
                index = len(self.steps) - 1
            step = self.steps[index]
        try:
            return 200, step(body) if callable(step) else step
        except Exception as error:  # the test reads these after the run
            self.errors.append(f"step {index}: {error!r}")
            return 500, {"error": repr(error)}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
