"""A real screen reader reading a page: Orca in a virtual X server, its speech caught as text (docs/screen-reader-tests.md).

`ScreenReader` starts, in a temporary directory and in this order: Xvfb on a free display, a private D-Bus session
bus, the AT-SPI bus (through which Orca reads applications), speech-dispatcher with one output module that writes
every utterance to a file instead of a sound card, Orca with settings this file fixes, and Chromium on one page.
Keys go to Chromium through xdotool, as a keyboard's do; after each key the harness waits until Orca has stopped
speaking and keeps what it said, so a journey reads as keys and the speech each one caused.

Orca writes every utterance to its debug log ("SPEECH OUTPUT: '…'"): that is the record the tests read. Orca
opens the log with Python's `open`, which buffers whole blocks unless the file is a terminal, so the log goes to a
pseudo-terminal this process reads line by line. speech-dispatcher's file is a second record, of what reached the
synthesiser and in which language; espeak-ng renders each utterance into /dev/null with the voice of its language,
so the voice is really used, silently.

Every process is started in a session of its own and its whole process group is ended by `close`, however the
test ended. Orca allows one Orca per user: a ScreenReader refuses to start beside another.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import pty
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field

# Debian's Python with pyatspi: Orca must not run under the test's virtual environment.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PROGRAMS = ("/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher", "/usr/bin/speech-dispatcher",
            "/usr/bin/orca", "/usr/bin/xdotool", "/usr/bin/espeak-ng", "/usr/bin/chromium")
START_TIMEOUT = 20.0
# Orca has finished a step when neither record has grown for this long.
QUIET = 0.5
# The longest a step may take to start speaking (a page load under a parallel build) and to finish.
FIRST_WORD_TIMEOUT = 10.0
STEP_TIMEOUT = 30.0

# The utterance, then (for some) the voice's name, then the voice's settings as a dictionary.
SPEECH_OUTPUT = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\w+)?(?:\{.*\})?$")
# What Orca says last when a page has loaded ("Page has 4 landmarks, 1 heading, …"), after "Finished loading" and
# sometimes more than QUIET later: a step that opens a page lasts until then. Orca 43.1 says both in English in
# Japanese too.
PAGE_SUMMARY = "Page has "
# Orca's progress message while a page loads (its Japanese catalog leaves it in English).
LOADING = re.compile(r"Loading\.\s+Please wait\.")
# Orca splits text by its language (the page's `lang` attributes, as AT-SPI reports them) and asks for a voice for
# each piece; the languages asked for are kept with the step.
VOICE_LANGUAGE = re.compile(r"SPEECH GENERATOR: \w+ voice requested with language='([a-z]{2}[^']*)'")

# The settings Orca runs with, whatever the machine's: a fixed verbosity so transcripts do not depend on defaults
# changed elsewhere. Say All on load is off: a page is read by moving through it, as the journeys do.
ORCA_SETTINGS = {
    "sayAllOnLoad": False,
    "pageSummaryOnLoad": True,
    "enablePositionSpeaking": True,
    "enableBraille": False,
    "enableBrailleMonitor": False,
    "enableSound": False,
    "enableKeyEcho": False,
    "enableEchoByCharacter": False,
    "enableEchoByWord": False,
    "enableTutorialMessages": False,
    "enableMnemonicSpeaking": False,
    "presentToolTips": False,
    "speakNumbersAsDigits": False,
    "verbalizePunctuationStyle": 1,  # "most"
    "speechVerbosityLevel": 1,  # verbose
    "messagesAreDetailed": True,
    "readFullRowInDocumentTable": True,
    "speakCellHeaders": True,
    "speakCellCoordinates": False,
    "structNavTriggersFocusMode": False,
    "caretNavTriggersFocusMode": False,
    "nativeNavTriggersFocusMode": True,
    "enableSpeech": True,
    "speechServerFactory": "speechdispatcherfactory",
    "speechServerInfo": None,
    "startingProfile": ["Default", "default"],
    "activeProfile": ["Default", "default"],
    "profile": ["Default", "default"],
}

# speech-dispatcher with no sound card: its audio output goes to ALSA's null device, and its one module runs a
# command per utterance. The command appends the language and the text to the record and renders the text with
# espeak-ng's voice for that language into /dev/null.
SPEECHD_CONF = """\
AudioOutputMethod "alsa"
AudioALSADevice "null"
LogLevel 2
LogDir "{logs}"
AddModule "record" "sd_generic" "record.conf"
DefaultModule record
LanguageDefaultModule "en" "record"
LanguageDefaultModule "ja" "record"
"""
RECORD_CONF = """\
Debug 0
GenericExecuteSynth "printf '%s\\\\t%s\\\\n' '$LANGUAGE' \\'$DATA\\' >> {record}; printf %s \\'$DATA\\' | espeak-ng -v $VOICE -q --stdin -w /dev/null"
GenericCmdDependency "espeak-ng"
GenericLanguage "en" "en" "utf-8"
GenericLanguage "ja" "ja" "utf-8"
AddVoice "en" "MALE1" "en"
AddVoice "en" "FEMALE1" "en"
AddVoice "ja" "MALE1" "ja"
AddVoice "ja" "FEMALE1" "ja"
"""


@dataclass
class Step:
    """One key (or a few) and what Orca said after it."""
    what: str
    spoken: list[str] = field(default_factory=list)
    # Languages Orca found in the page's text during this step (from `lang` attributes), in the order asked for.
    languages: list[str] = field(default_factory=list)

    @property
    def said(self) -> str:
        """The step's utterances joined into one line, as a listener hears them one after another."""
        return " ".join(piece.strip() for piece in self.spoken if piece.strip())


class ScreenReaderError(AssertionError):
    pass


class ScreenReader:
    """Orca reading one Chromium window; `language` is Orca's own (its messages and its default voice)."""

    def __init__(self, *, language: str = "en") -> None:
        for program in PROGRAMS:
            if not os.access(program, os.X_OK):
                raise ScreenReaderError(f"no {program}: scripts/setup-system --test installs what the speech tests need")
        if _other_orcas():
            raise ScreenReaderError("another Orca runs as this user, and Orca allows one per user: stop it first")
        self.language = language
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="vouch-orca-"))
        self.processes: list[tuple[str, subprocess.Popen]] = []
        self.steps: list[Step] = []
        self._lines: list[str] = []
        self._lines_lock = threading.Lock()
        self._last_growth = time.monotonic()
        self._pty_master: int | None = None
        self._pty_slave: int | None = None
        self._reader: threading.Thread | None = None
        self._record = self.directory / "speechd-record.txt"
        self._record_size = 0
        self._record_grew = 0.0
        self.environment: dict[str, str] = {}

    # Starting

    def start(self, url: str) -> Step:
        """Starts everything and opens `url`; the first step is what Orca said while the page loaded."""
        try:
            self._start_desktop()
            self._start_speech()
            self._start_orca()
            return self._open(url)
        except BaseException:
            self.close()
            raise

    def _spawn(self, name: str, command: list[str], **options) -> subprocess.Popen:
        log = open(self.directory / f"{name}.log", "wb")
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=options.pop("stdout", log), stderr=log,
                                       env=options.pop("env", self.environment), start_new_session=True, **options)
        finally:
            log.close()
        self.processes.append((name, process))
        return process

    def _start_desktop(self) -> None:
        home = self.directory / "home"
        runtime = self.directory / "run"
        for path in (home, runtime):
            path.mkdir(mode=0o700)
        self.environment = {
            "PATH": SYSTEM_PATH, "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime),
            "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local/share"),
            "XDG_CACHE_HOME": str(home / ".cache"), "TMPDIR": str(self.directory),
            # No settings daemon: GSettings keeps its values in memory; GTK loads the AT-SPI bridge.
            "GSETTINGS_BACKEND": "memory", "GTK_MODULES": "gail:atk-bridge", "ACCESSIBILITY_ENABLED": "1",
            "NO_AT_BRIDGE": "0", "LANG": "C.UTF-8", "LANGUAGE": self.language,
        }
        # Xvfb picks a free display and writes its number to the pipe (the X server's port 0).
        read_end, write_end = os.pipe()
        try:
            self._spawn("xvfb", ["/usr/bin/Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24",
                                 "-nolisten", "tcp", "-noreset"], pass_fds=(write_end,))
            os.close(write_end)
            write_end = -1
            display = _read_line(read_end, START_TIMEOUT, "Xvfb did not say which display it took")
        finally:
            os.close(read_end)
            if write_end >= 0:
                os.close(write_end)
        self.environment["DISPLAY"] = f":{display}"
        bus = self._spawn("dbus", ["/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1",
                                   f"--address=unix:dir={runtime}"], stdout=subprocess.PIPE)
        self.environment["DBUS_SESSION_BUS_ADDRESS"] = _read_line(bus.stdout.fileno(), START_TIMEOUT,
                                                                  "dbus-daemon did not print its address")
        self._spawn("at-spi", ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])
        self._wait(lambda: subprocess.run(
            ["/usr/bin/dbus-send", "--session", "--dest=org.a11y.Bus", "--print-reply", "/org/a11y/bus",
             "org.a11y.Bus.GetAddress"], env=self.environment, capture_output=True).returncode == 0,
            "the AT-SPI bus did not start")

    def _start_speech(self) -> None:
        config = self.directory / "speechd"
        (config / "modules").mkdir(parents=True)
        (config / "logs").mkdir()
        (config / "speechd.conf").write_text(SPEECHD_CONF.format(logs=config / "logs"))
        (config / "modules" / "record.conf").write_text(RECORD_CONF.format(record=self._record))
        self._record.touch()
        socket = self.directory / "run" / "speechd.sock"
        # Started here rather than on demand: one started by its client detaches and outlives the test.
        self._spawn("speech-dispatcher", ["/usr/bin/speech-dispatcher", "--run-single", "--timeout", "0",
                                          "--config-dir", str(config), "--socket-path", str(socket),
                                          "--pid-file", str(self.directory / "speechd.pid")])
        self.environment["SPEECHD_ADDRESS"] = f"unix_socket:{socket}"
        self._wait(socket.exists, "speech-dispatcher did not open its socket")

    def _start_orca(self) -> None:
        preferences = self.directory / "orca"
        preferences.mkdir()
        general = dict(ORCA_SETTINGS)
        # The default voice speaks the reader's language: espeak-ng's English or Japanese voice.
        general["voices"] = {name: {"established": False} for name in ("uppercase", "hyperlink", "system")}
        general["voices"]["default"] = {"established": True, "family": {"name": None, "lang": self.language,
                                                                        "dialect": "", "variant": None}}
        settings = {"general": general, "pronunciations": {}, "keybindings": {},
                    "profiles": {"default": {"profile": ["Default", "default"], "pronunciations": {}, "keybindings": {}}}}
        (preferences / "user-settings.conf").write_text(json.dumps(settings, indent=4))
        # The debug log goes to a pseudo-terminal so that Orca writes it line by line.
        # This process keeps the terminal's other end open too: without it, reading would fail until Orca opens it.
        self._pty_master, self._pty_slave = pty.openpty()
        self._spawn("orca", ["/usr/bin/orca", "--user-prefs", str(preferences), "--debug-file",
                             os.ttyname(self._pty_slave)])
        self._reader = threading.Thread(target=self._read_debug_log, daemon=True)
        self._reader.start()
        # Orca's first utterance is its greeting ("Screen reader on."): then it is ready.
        self._wait(lambda: self._seen("SPEECH OUTPUT: "), "Orca did not start")

    def _open(self, url: str) -> Step:
        profile = self.directory / "chromium"
        # The browser asks for pages in the reader's language, as a Japanese person's browser does (Accept-Language).
        (profile / "Default").mkdir(parents=True)
        accepted = "ja,en" if self.language == "ja" else "en-GB,en"
        (profile / "Default" / "Preferences").write_text(json.dumps({"intl": {"accept_languages": accepted,
                                                                              "selected_languages": accepted}}))
        command = ["/usr/bin/chromium", "--no-first-run", "--no-default-browser-check", "--test-type", "--disable-gpu",
                   "--ozone-platform=x11", "--force-renderer-accessibility", f"--user-data-dir={profile}",
                   "--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--disable-extensions", "--disable-default-apps", "--password-store=basic",
                   # Chromium offers to translate a page in another language than its own, in a dialog Orca reads.
                   "--disable-features=Translate",
                   "--window-position=0,0", "--window-size=1280,1000", f"--lang={self.language}", f"--app={url}"]
        if os.geteuid() == 0:
            # As root Chromium runs only without its sandbox; --test-type keeps the warning bar about it away.
            command.insert(1, "--no-sandbox")
        step = self._step("open the page", lambda: self._spawn("chromium", command), until=PAGE_SUMMARY)
        # What Orca says of the window before the page has loaded (its title then, "Loading") depends on timing.
        finished = next(index for index, piece in enumerate(step.spoken) if "Finished loading" in piece)
        step.spoken = step.spoken[finished:]
        return step

    # Reading Orca's log

    def _read_debug_log(self) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(self._pty_master, 65536)
            except OSError:
                return
            if not chunk:
                return
            pending += chunk
            *complete, pending = pending.split(b"\n")
            if complete:
                with self._lines_lock:
                    self._lines.extend(line.decode("utf-8", "replace").rstrip("\r") for line in complete)
                    self._last_growth = time.monotonic()

    def _seen(self, text: str) -> bool:
        with self._lines_lock:
            return any(text in line for line in self._lines)

    def _line_count(self) -> int:
        with self._lines_lock:
            return len(self._lines)

    def _wait(self, condition, failure: str, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise ScreenReaderError(f"{failure} within {timeout:.0f} s (VOUCH_KEEP_ORCA_LOGS=1 keeps every log, in "
                                        f"{self.directory}):\n{self._tails()}")
            time.sleep(0.05)

    def _spoken_since(self, start: int) -> tuple[list[str], list[str], int]:
        with self._lines_lock:
            lines = self._lines[start:]
        spoken, languages = [], []
        for line in lines:
            said = SPEECH_OUTPUT.search(line)
            if said:
                spoken.append(said.group(1))
            voice = VOICE_LANGUAGE.search(line)
            if voice and voice.group(1) not in languages:
                languages.append(voice.group(1))
        return spoken, languages, start + len(lines)

    def _quiet_for(self) -> float:
        """Seconds since either record last grew."""
        size = self._record.stat().st_size
        now = time.monotonic()
        if size != self._record_size:
            self._record_size = size
            self._record_grew = now
        with self._lines_lock:
            last = self._last_growth
        return now - max(last, self._record_grew)

    def _orca_is_running(self) -> bool:
        """Whether one of Orca's threads is running or waiting for a CPU (state R in /proc)."""
        orca = next((process for name, process in self.processes if name == "orca"), None)
        if orca is None:
            return False
        for stat in pathlib.Path(f"/proc/{orca.pid}/task").glob("*/stat"):
            with contextlib.suppress(OSError):
                # The state follows the command's closing parenthesis: "pid (comm) S …".
                if stat.read_text().rsplit(")", 1)[1].split()[0] == "R":
                    return True
        return False

    # Steps

    def _step(self, what: str, action, *, until: str | None = None, silent: bool = False) -> Step:
        """Does `action`, waits until Orca has said something (or `until`) and then nothing for QUIET seconds."""
        start = self._line_count()
        action()
        began = time.monotonic()
        while True:
            spoken, _, _ = self._spoken_since(start)
            heard = " ".join(spoken)
            waited = time.monotonic() - began
            if until is not None and until in heard:
                break
            if until is None and (spoken or silent):
                break
            if waited > (STEP_TIMEOUT if until else FIRST_WORD_TIMEOUT):
                if until is None:
                    break
                raise ScreenReaderError(f"{what}: Orca did not say {until!r} within {waited:.0f} s; it said: {heard!r}")
            time.sleep(0.05)
        deadline = time.monotonic() + STEP_TIMEOUT
        # Quiet alone is not the end on a loaded machine: Orca, starved of the CPU between two utterances of one
        # step, wrote nothing for longer than QUIET while it still had the role word to say. It has finished only
        # once it also waits for nothing but events (no thread runnable).
        while self._quiet_for() < QUIET or self._orca_is_running():
            if time.monotonic() > deadline:
                raise ScreenReaderError(f"{what}: Orca did not stop speaking within {STEP_TIMEOUT:.0f} s")
            time.sleep(0.05)
        spoken, languages, _ = self._spoken_since(start)
        # "Loading. Please wait." comes before or after the page's first words, as the page's events happen to arrive.
        spoken = [piece for piece in spoken if not LOADING.fullmatch(piece.strip())]
        step = Step(what, spoken, languages)
        self.steps.append(step)
        return step

    def press(self, *keys: str, what: str | None = None, until: str | None = None, silent: bool = False) -> Step:
        """Presses `keys` one after another (xdotool's names: Tab, shift+Tab, Return, space, Down, h, Insert+a) and
        keeps what Orca said after them as one step."""
        return self._step(what or " ".join(keys), lambda: self._xdotool("key", "--delay", "60", *keys),
                          until=until, silent=silent)

    def type(self, text: str, *, what: str | None = None) -> Step:
        """Types `text` into the field that has the focus; Orca echoes no typed keys with these settings."""
        return self._step(what or f"type {text!r}", lambda: self._xdotool("type", "--delay", "20", text), silent=True)

    def voices(self) -> set[str]:
        """The languages of the voices speech-dispatcher spoke with (its record's first column)."""
        lines = self._record.read_text(errors="replace").splitlines()
        return {line.split("\t", 1)[0] for line in lines if "\t" in line}

    def _xdotool(self, *arguments: str) -> None:
        subprocess.run(["/usr/bin/xdotool", *arguments], env=self.environment, check=True, capture_output=True,
                       timeout=STEP_TIMEOUT)

    # Ending

    def close(self) -> None:
        """Ends every process this reader started (each whole process group), and removes its directory."""
        for name, process in reversed(self.processes):
            _end_group(process)
        for descriptor in (self._pty_slave, self._pty_master):
            if descriptor is not None:
                with contextlib.suppress(OSError):
                    os.close(descriptor)
        self._pty_master = self._pty_slave = None
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.processes = []
        if os.environ.get("VOUCH_KEEP_ORCA_LOGS") == "1":
            # Orca's debug log was read from a terminal, never written to a file: kept here with the others.
            with self._lines_lock:
                (self.directory / "orca-debug.log").write_text("\n".join(self._lines) + "\n")
        else:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _tails(self) -> str:
        parts = []
        for log in sorted(self.directory.glob("*.log")):
            text = log.read_text(errors="replace").strip().splitlines()[-8:]
            parts.append(f"--- {log.name}\n" + "\n".join(text))
        with self._lines_lock:
            parts.append("--- orca debug log (last lines)\n" + "\n".join(self._lines[-15:]))
        return "\n".join(parts)

    def __enter__(self) -> "ScreenReader":
        return self

    def __exit__(self, *exception) -> None:
        self.close()


def _other_orcas() -> bool:
    found = subprocess.run(["pgrep", "-u", str(os.getuid()), "-x", "orca"], capture_output=True, text=True)
    return bool(found.stdout.strip())


def _read_line(fd: int, timeout: float, failure: str) -> str:
    data = b""
    deadline = time.monotonic() + timeout
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise ScreenReaderError(failure)
        chunk = os.read(fd, 4096)
        if not chunk:
            raise ScreenReaderError(failure)
        data += chunk
    return data.decode().strip()


def _end_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process's group (it leads a session of its own), SIGKILL to what is left after 3 s."""
    group = process.pid
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        pass
    # Orca ignores SIGTERM until its next event, and a group may hold children that outlive their leader.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=3)
    if process.stdout is not None:
        process.stdout.close()
