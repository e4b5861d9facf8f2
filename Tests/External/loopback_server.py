"""An HTTP/1.1 server on 127.0.0.1 (port 0) in a background thread, for the tests' webhook receivers."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


class LoopbackServer:
    """Hands every request, whatever its method, to `handle` on a thread of its own."""

    def __init__(self, handle: Callable[[BaseHTTPRequestHandler], None], name: str):
        class Handler(BaseHTTPRequestHandler):
            # HTTP/1.1 so the daemon's curl handles may keep connections alive, as they would with a real receiver.
            protocol_version = "HTTP/1.1"
            timeout = 30

            def do_POST(self) -> None:
                handle(self)

            do_GET = do_PUT = do_PATCH = do_DELETE = do_POST

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"{name}-{self.port}", daemon=True)
        self._thread.start()

    def shutdown(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        assert not self._thread.is_alive(), "the webhook receiver did not stop"
