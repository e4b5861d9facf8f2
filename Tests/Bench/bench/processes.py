"""The run's scratch directory and the processes it starts: each is stopped at the end, however the run ends, and
only those (never by name)."""

import os
import shutil
import signal
import subprocess
import tempfile

from bench.report import BenchFailure, show


class Session:
    def __init__(self, root: str) -> None:
        self.root = root
        self.tmp = tempfile.mkdtemp(prefix="vouch-bench.", dir="/tmp")
        self.started: list[subprocess.Popen] = []
        self.postgres_dir = ""  # part 9's cluster while it runs

    def path(self, *parts: str) -> str:
        return os.path.join(self.tmp, *parts)

    def start(self, command: list[str], stdout=subprocess.DEVNULL, stderr=None, environment=None) -> subprocess.Popen:
        """Starts a process that runs beside the measurements; it is stopped at the end if still running."""
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=environment, cwd=self.root)
        self.started.append(process)
        return process

    @staticmethod
    def stop(process: subprocess.Popen) -> None:
        if process.poll() is None:
            try:
                process.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
        process.wait()

    def run(self, command: list[str], environment=None) -> str:
        """Runs a step to its end and returns what it printed; a step that fails ends the run."""
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=self.root,
                                env=environment)
        if result.returncode != 0:
            show(result.stdout)
            raise BenchFailure(f"{_step(command)} exited with status {result.returncode}")
        return result.stdout

    def tee(self, command: list[str]) -> str:
        """Runs a step, printing its lines as they come, and returns them."""
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=self.root)
        lines = []
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line)
        if process.wait() != 0:
            raise BenchFailure(f"{_step(command)} exited with status {process.returncode}")
        return "".join(lines)

    def timed(self, command: list[str], stdout_path: str) -> tuple[int, str]:
        """Runs `command` with its output in a file; returns its exit status and its own CPU time as
        `user system` seconds (three decimals each), from the kernel's account of that one child."""
        with open(stdout_path, "w") as output:
            process = subprocess.Popen(command, stdout=output, cwd=self.root)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
        return process.returncode, f"{usage.ru_utime:.3f} {usage.ru_stime:.3f}"

    def scripts(self, name: str, *arguments: str, quiet: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([os.path.join(self.root, "scripts", name), *arguments], cwd=self.root, text=True,
                              stdout=subprocess.PIPE if quiet else None, stderr=subprocess.STDOUT if quiet else None)

    def cleanup(self) -> None:
        for process in self.started:
            if process.poll() is None:
                try:
                    process.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process in self.started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.postgres_dir:
            self.scripts("postgres-cluster", "stop", self.postgres_dir)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _step(command: list[str]) -> str:
    """A command's program and first argument (`vouch-bench populate`), to name a step that failed."""
    return " ".join([os.path.basename(command[0]), *command[1:2]])

