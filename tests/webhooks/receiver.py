"""A tiny HTTP receiver for webhook tests and the bench: answers each POST as its script
says (a status, or ``"sleep"`` to answer only after the sender has given up) and keeps
what it received."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    port: int
    script: list[Any] = field(default_factory=list)  # per request: status, "sleep", (307, url)
    default: int = 200
    sleep: float = 1.0
    received: list[Received] = field(default_factory=list)
    on_receive: Callable[[Received], None] | None = None
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                got = Received(self.path, dict(self.headers.items()), body, time.monotonic())
                receiver.received.append(got)
                step = receiver.script.pop(0) if receiver.script else receiver.default
                if step == "sleep":
                    time.sleep(receiver.sleep)
                    step = 200
                if isinstance(step, tuple):
                    self.send_response(step[0])
                    self.send_header("Location", step[1])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                text = b"ok" if step < 400 else b"boom " * 400
                self.send_response(step)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)
                if receiver.on_receive is not None and step < 300:
                    receiver.on_receive(got)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]  # the one the system gave for port 0
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
