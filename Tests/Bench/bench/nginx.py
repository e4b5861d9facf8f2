"""nginx as the reference server (part 1: the same bytes vouchd answers) and as the webhook receiver (part 6)."""

import os
import shutil
import subprocess
import time

from bench.report import BenchFailure, show


def binary() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


def _temp_paths(directory: str) -> str:
    return "".join(f"    {kind}_temp_path {directory}/{kind.replace('client_body', 'body')};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))


def _head(directory: str, workers: int) -> str:
    """In the foreground, with its pid file and error log in `directory`."""
    return f"""worker_processes {workers};
daemon off;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 1024; }}
"""


def reference_config(directory: str, port: str, answer: str) -> str:
    """Two workers answering every request with `answer`, no access log, keep-alive for the whole run."""
    return _head(directory, 2) + f"""http {{
    access_log off;
{_temp_paths(directory)}    # libmicrohttpd keeps a connection open for any number of requests; so does the reference
    # (nginx's default closes after 1,000, which would make it reconnect during the run).
    keepalive_requests 100000000;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            default_type application/json;
            return 200 '{answer}';
        }}
    }}
}}
"""


def receiver_config(directory: str, port: str) -> str:
    """One worker answering `POST /hook` with 204, logging each request's time, connection and count."""
    return _head(directory, 1) + f"""http {{
    # Arrival time, the TCP connection's serial number and its request count: to count requests and connections.
    log_format hook '$msec $connection $connection_requests $status $request_method $uri';
    access_log {directory}/access.log hook;
{_temp_paths(directory)}    keepalive_requests 100000000;
    server {{
        listen 127.0.0.1:{port};
        location = /hook {{ return 204; }}
    }}
}}
"""


def start(session, directory: str, config: str, ready, what: str) -> subprocess.Popen:
    """nginx on a config of its own in `directory`; waits until `ready()` (up to 5 s)."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "nginx.conf")
    error_log = os.path.join(directory, "error.log")
    with open(path, "w") as file:
        file.write(config)
    process = session.start([binary(), "-p", directory, "-c", path, "-e", error_log], stdout=None)
    for _ in range(100):
        if ready():
            break
        if process.poll() is not None:
            show(open(error_log).read() if os.path.exists(error_log) else "")
            raise BenchFailure(f"{what} exited at start")
        time.sleep(0.05)
    return process
