"""The `vouch` binary run with random, truncated and malformed command lines against a live vouchd.

The binary is $VOUCH, or else the `vouch` next to $VOUCHD, or else .build/debug/vouch. The command tree is read from
the binary's own help (`vouch --help`, then `vouch <command> --help` down to every leaf), so a new command or option
is fuzzed without touching this file. Each invocation runs with VOUCH_URL and VOUCH_TOKEN (the admin token) in its
environment, or the same two given as --server and --token, standard input from /dev/null (not a terminal, so
nothing is asked), and a fresh working directory (files named on the command line land there).

Command lines: plausible ones built from the tree (required arguments and options filled with seeded identifiers,
allowed values and ordinary text), then mutated: truncated, an element dropped or repeated, unknown and misspelt
options, options missing their value, `--name=value` forms, shuffled, invalid UTF-8 bytes in an argument, huge values,
and bags of random words from the tree's vocabulary. A single argument on Linux may hold at most 128 KiB
(MAX_ARG_STRLEN), so "huge" is one argument of 128 KiB - 1 byte, or 1 MiB spread over eight values of a repeatable
option (and a 1 MiB feedback file).

Every invocation must end by itself with an exit status, never a signal, within 20 s, with no Swift runtime crash
report (fatal error, stack dump) on stderr; a non-zero status must come with `Error: ...` as stderr's first line.
The allowed statuses (Sources/VouchCLI/ExitCode.swift): 0 when the random command happens to be valid, 64 for a wrong
command line, 65 for input the server refused. Besides those:
- 77 (not allowed) only for `approve` and `reject`: a release manager may not approve a fix they wrote, and the fuzz
  creates fixes with the same admin token it approves with (403); and for the few invocations that send a made-up
  --token on purpose (there are at most MADE_UP_TOKENS of them, under the daemon's auth.max_failures of 20 per
  address, so the admin token is never blocked).
- 69 (unreachable) only for the invocations that point --server at a port nobody listens on.
- 1 (failure) only for invocations that name a file to write (--output): a file that cannot be written is the
  machine failing, not the command line. A --file that cannot be read is a wrong argument: 64.

Fixed seed and count, so a run takes well under a minute and repeats; it prints the figures (invocations, by exit
status and by kind of mutation).
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import random
import re
import subprocess
import time
from dataclasses import dataclass, field

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SEED = 20251130
INVOCATIONS = 600
TIMEOUT = 20.0
# The largest single argument execve accepts on Linux is MAX_ARG_STRLEN = 32 pages = 128 KiB, terminator included.
LARGEST_ARGUMENT = 128 * 1024 - 1
MADE_UP_TOKENS = 6
CRASH_SIGNS = re.compile(r"Fatal error|fatal error|Stack dump|stack trace|Current stack|Segmentation fault|"
                         r"Illegal instruction|Program crashed|SIGSEGV|SIGILL|SIGABRT|SIGTRAP|Assertion failed|"
                         r"Precondition failed|Unexpectedly found nil|Index out of range|0x[0-9a-f]{12}")


def vouch_binary() -> str:
    binary = os.environ.get("VOUCH")
    if not binary and os.environ.get("VOUCHD"):
        binary = str(pathlib.Path(os.environ["VOUCHD"]).with_name("vouch"))
    binary = binary or str(REPOSITORY / ".build" / "debug" / "vouch")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no vouch at {binary}: build it (swift build --product vouch) or set VOUCH=/abs/path/to/vouch",
                    pytrace=False)
    return binary


# --- the command tree, read from the binary's help -------------------------------------------------------------

@dataclass
class Option:
    name: str  # without the dashes
    placeholder: str | None  # "<text>", or None for a flag
    aliases: list[str]
    allowed: list[str]
    repeatable: bool
    required: bool


@dataclass
class Argument:
    name: str  # "<key>"
    optional: bool
    variadic: bool


@dataclass
class Leaf:
    path: list[str]
    arguments: list[Argument] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)


def help_text(binary: str, path: list[str]) -> str:
    finished = subprocess.run([binary, *path, "--help"], capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
    assert finished.returncode == 0 and finished.stderr == "", f"vouch {' '.join(path)} --help: {finished}"
    return finished.stdout


def section(text: str, title: str) -> list[str]:
    """The entries under `title:` up to the next blank line; help is wrapped at 80 characters, and a line indented
    further than its entry continues it."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(title):
            body = []
            for entry in lines[index + 1:]:
                if not entry.startswith("  "):
                    break
                if entry.startswith("   ") and body:
                    body[-1] += " " + entry.strip()
                else:
                    body.append(entry.strip())
            return body
    return []


def usage_line(text: str) -> str:
    """The usage, its wrapped continuation lines (aligned under its first part) joined into one."""
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("Usage: "))
    usage = lines[start]
    for line in lines[start + 1:]:
        if not line.startswith("       "):
            break
        usage += " " + line.strip()
    return usage


def read_tree(binary: str, path: list[str] | None = None) -> list[Leaf]:
    path = path or []
    text = help_text(binary, path)
    commands = [line.split(":", 1)[0] for line in section(text, "Commands:")]
    commands = [command for command in commands if command != "help"]
    if commands:
        return [leaf for command in commands for leaf in read_tree(binary, path + [command])]
    usage = usage_line(text)
    leaf = Leaf(path=path)
    for match in re.finditer(r"(\[)?(<[a-z-]+>)( \.\.\.)?\]?", usage.split(" ".join(path), 1)[1]):
        # Only the words before the first option are arguments; option placeholders follow their option.
        before = usage[:usage.index(match.group(2))]
        if before.rstrip().split(" ")[-1].lstrip("[").startswith("--"):
            continue
        leaf.arguments.append(Argument(match.group(2), optional=bool(match.group(1)), variadic=bool(match.group(3))))
    for line in section(text, "Options:"):
        head, description = line.split(": ", 1)
        names = re.findall(r"--([a-z-]+)", head)
        placeholder = re.search(r"<[^>]+>", head)
        # "Allowed: a, b, c." ends at a full stop followed by a space or the end (values such as fix.created have dots).
        allowed = re.search(r"Allowed: (.+?)\.(?= |$)", description)
        values = [value.strip() for value in allowed.group(1).split(",")] if allowed else []
        leaf.options.append(Option(name=names[0], placeholder=placeholder.group(0) if placeholder else None,
                                   aliases=names[1:], allowed=values, repeatable="Repeat it" in description,
                                   required=re.search(r"\bRequired[.;]", description) is not None))
    return [leaf]


# --- seeded data ---------------------------------------------------------------------------------------------------

@dataclass
class Seeded:
    fixes: list[str]
    testers: list[str]
    webhooks: list[str]
    deliveries: list[str]
    spare_tokens: list[str]
    receiver: str


@pytest.fixture
def vouchd_environment():
    # Webhook receivers on 127.0.0.1 are allowed: the fuzz adds some that point at a port refusing connections,
    # so no delivery ever waits for a timeout.
    return {"VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s"}


def seed(vouchd, receiver: str) -> Seeded:
    # Written by a maintainer, so the admin token the fuzz uses may approve and reject them.
    maintainer = vouchd.create_token("fuzz-maintainer", "maintainer")
    fixes = ["tv-channel-selector-labels", "epg-grid-focus-order", "player-captions"]
    for number, key in enumerate(fixes):
        vouchd.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"Fix {number}", "ui_area": "TV channel selector",
                                                 "platforms": ["ios"], "wcag": ["4.1.2"]}, token=maintainer)
        if number < 2:
            vouchd.expect(200, "POST", f"/v1/fixes/{key}/start")
    testers = [vouchd.expect(201, "POST", "/v1/testers", {
        "name": name, "consent": "2026-11", "assistive_tech": ["voiceover:ios:18.2"], "targeting_keys": [f"{name}-1"]})["id"]
        for name in ("aiko", "ben", "chloe")]
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes[0]}/enrollments", {"testers": testers})
    webhooks = [vouchd.expect(201, "POST", "/v1/webhooks", {"url": receiver})["id"] for _ in range(2)]
    vouchd.expect(202, "POST", f"/v1/webhooks/{webhooks[0]}/test")
    deliveries = [delivery["id"] for delivery in vouchd.expect(200, "GET", "/v1/deliveries")["deliveries"]]
    spare = [vouchd.expect(201, "POST", "/v1/tokens", {"name": f"spare-{n}", "role": "sdk"})["id"] for n in range(3)]
    return Seeded(fixes=fixes, testers=testers, webhooks=webhooks, deliveries=deliveries, spare_tokens=spare,
                  receiver=receiver)


# --- command lines ---------------------------------------------------------------------------------------------

INVALID_UTF8 = [b"\xff", b"\xc3\x28", b"\xa0\xa1", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc", b"\xed\xa0\x80", b"\xc0\xaf",
                b"\xf8\x88\x80\x80\x80", b"\x80"]
ODD_TEXT = ["", " ", "-", "--", "---", "-1", "0", "1e309", "NaN", "null", "true", "[]", "{}", "\t", "\n", "line\nbreak",
            "\u200b", "\u202e", "💣", "é", "a" * 300, "%s%n%x", "../../etc/passwd", "'; DROP TABLE fixes; --", "\x7f",
            "\x1b[31m", "=", "a=b", ",", ",,,", "t_", "tok_", "we_", "http://", "ftp://x", "-h", "--help", "--version"]
UNKNOWN_OPTIONS = ["--bogus", "--titel", "--platfrom", "-x", "-", "--", "---", "--=", "--=value", "-abc", "--json=yes",
                   "--help=me", "--server=", "--token=", "--TITLE", "—title", "--tïtle", "-T"]


class Generator:
    """Builds command lines, each with the kind of mutation that made it and the statuses it may end with."""

    def __init__(self, rng: random.Random, leaves: list[Leaf], seeded: Seeded, refusing_port: int):
        self.rng = rng
        self.leaves = leaves
        self.seeded = seeded
        self.refusing_port = refusing_port
        self.made_up_tokens = 0
        words = {word for leaf in leaves for word in leaf.path}
        words |= {f"--{option.name}" for leaf in leaves for option in leaf.options}
        words |= {value for leaf in leaves for option in leaf.options for value in option.allowed}
        # Not --token: a made-up token is sent on purpose only a few times (see MADE_UP_TOKENS).
        words |= {"--server", "--json", "--help", "-h", "--version", "help"}
        self.vocabulary = sorted(words)

    def value(self, leaf: Leaf, placeholder: str, allowed: list[str], option: str = "", repeatable: bool = False) -> str:
        rng = self.rng
        if allowed and rng.random() < 0.85:
            picked = rng.sample(allowed, k=min(len(allowed), rng.choice([1, 1, 1, 2]) if repeatable else 1))
            return ",".join(picked)
        noun = leaf.path[0]
        name = placeholder.strip("<>")
        if rng.random() < 0.08:
            return rng.choice(ODD_TEXT)
        if name in ("key", "fix", "flag"):
            return rng.choice(self.seeded.fixes * 2 + [f"fuzz-{rng.randrange(40)}", f"fuzz-{rng.randrange(40)}",
                                                       "no-such-fix", "Bad Key"])
        if name in ("id", "tester", "delivery"):
            if noun == "tester" or "tester" in (name, option):
                pool = self.seeded.testers + ["t_000000000000"]
            elif noun == "token":
                pool = self.seeded.spare_tokens + ["tok_0000000000000000"]
            elif leaf.path[-1] == "redeliver" or name == "delivery":
                pool = self.seeded.deliveries + ["dl_0000000000000000"]
            else:
                pool = self.seeded.webhooks + ["we_0000000000000000"]
            return rng.choice(pool)
        if name == "url":
            return rng.choice([self.seeded.receiver, self.seeded.receiver + "/hooks", "not a url",
                               "ftp://127.0.0.1/", "http://user:pass@127.0.0.1/", "http://[::1", "https://"])
        if name in ("n", "percent"):
            return rng.choice(["0", "1", "2", "5", "50", "100", "101", "500", "501", "-3", "9" * 30, "1.5", "x"])
        if name == "ratio":
            return rng.choice(["0", "0.8", "1", "1.01", "-0.1", "nan", "inf", "x"])
        if name == "duration":
            return rng.choice(["0", "90s", "15m", "24h", "7d", "91d", "1y", "-1h", "h", "999999999999d"])
        if name == "cursor":
            return rng.choice(["", "abc", "MTIz", "!!", "a" * 200])
        if name == "file":
            return rng.choice(["feedback.json", "batch.json", "bad.json", "huge.json", "missing.json", "-", "."])
        if name == "platform:technology":
            return rng.choice(["ios:voiceover", "android:talkback", "web:other", "ios", ":", "mac:voiceover", ""])
        if name == "technology:platform:version":
            return rng.choice(["voiceover:ios:18.2", "talkback:android", "braille_display:web:1", "voiceover", "x:y:z"])
        if name == "targeting-key":
            return rng.choice(["user-1", "qa-iphone", "user,2", " ", "k" * 257])
        if name == "true-or-false":
            return rng.choice(["true", "false", "yes", "1"])
        if name == "criterion":
            return rng.choice(["1.1.1", "4.1.2", "4.1.1", "9.9.9", "2.4.3,1.3.1"])
        return rng.choice(["Label the channel logos", "TV channel selector", "NHK, button, selected", "5.4.1 (412)",
                           "18.2", "iPhone 15", "Some issues, but usable", "ana@example.org", "2026-11", "x"])

    def plausible(self, leaf: Leaf) -> list[str]:
        """The leaf's path, its arguments and its required options (and some optional ones), filled in."""
        rng = self.rng
        argv = list(leaf.path)
        for argument in leaf.arguments:
            if argument.optional and rng.random() < 0.5:
                continue
            for _ in range(rng.choice([1, 1, 2, 3]) if argument.variadic else 1):
                argv.append(self.value(leaf, argument.name, []))
        for option in leaf.options:
            if not option.required and rng.random() < 0.6:
                continue
            spelled = "--" + rng.choice([option.name, *option.aliases])
            if option.placeholder is None:
                argv.append(spelled)
                continue
            for _ in range(rng.choice([1, 1, 2]) if option.repeatable else 1):
                value = self.value(leaf, option.placeholder, option.allowed, option.name, option.repeatable)
                argv += [f"{spelled}={value}"] if rng.random() < 0.2 else [spelled, value]
        if rng.random() < 0.2:
            argv.insert(rng.randrange(len(argv) + 1), "--json")
        return argv

    def next(self) -> tuple[str, list[str | bytes], set[int]]:
        rng = self.rng
        leaf = rng.choice(self.leaves)
        argv: list[str | bytes] = list(self.plausible(leaf))
        allowed = {0, 64, 65}
        if leaf.path[0] in ("approve", "reject"):
            allowed.add(77)  # the fuzz may approve a fix it created with the same admin token: 403
        kind = rng.choices(["plausible", "truncated", "dropped", "repeated", "unknown option", "missing value",
                            "shuffled", "invalid utf-8", "huge value", "odd value", "random words", "server or token"],
                           weights=[10, 12, 8, 5, 10, 10, 6, 12, 4, 8, 12, 3])[0]
        if kind == "truncated":
            argv = argv[:rng.randrange(len(argv) + 1)]
        elif kind == "dropped" and argv:
            del argv[rng.randrange(len(argv))]
        elif kind == "repeated" and argv:
            index = rng.randrange(len(argv))
            argv[index:index] = argv[index:index + rng.choice([1, 2])]
        elif kind == "unknown option":
            argv.insert(rng.randrange(len(argv) + 1), rng.choice(UNKNOWN_OPTIONS))
        elif kind == "missing value":
            valued = [option for option in leaf.options if option.placeholder] or [Option("server", "<url>", [], [], False, False)]
            argv.append("--" + rng.choice(valued).name)
        elif kind == "shuffled":
            rng.shuffle(argv)
        elif kind == "invalid utf-8" and argv:
            index = rng.randrange(len(argv))
            text = argv[index] if isinstance(argv[index], str) else ""
            cut = rng.randrange(len(text) + 1)
            argv[index] = os.fsencode(text[:cut]) + rng.choice(INVALID_UTF8) + os.fsencode(text[cut:])
        elif kind == "huge value":
            repeatable = [option for option in leaf.options if option.placeholder and option.repeatable]
            if repeatable and rng.random() < 0.5:
                option = rng.choice(repeatable)
                for _ in range(8):  # 1 MiB in all
                    argv += [f"--{option.name}", rng.choice("ab") * (LARGEST_ARGUMENT - len(option.name) - 3)]
            else:
                huge = rng.choice(["x", "é", "1", "-"]) * (LARGEST_ARGUMENT // 2)
                index = rng.randrange(len(argv) + 1)
                argv.insert(index, huge)
        elif kind == "odd value" and argv:
            argv[rng.randrange(len(argv))] = rng.choice(ODD_TEXT)
        elif kind == "random words":
            argv = [rng.choice(self.vocabulary + ODD_TEXT) for _ in range(rng.randrange(0, 7))]
            allowed.add(77) if "approve" in argv or "reject" in argv else None
        elif kind == "server or token":
            choice = rng.choice(["unreachable", "bad url", "missing", "made-up token"])
            if choice == "unreachable":
                argv += ["--server", f"http://127.0.0.1:{self.refusing_port}"]
                allowed.add(69)
            elif choice == "bad url":
                argv += ["--server", rng.choice(["127.0.0.1:8750", "ftp://x", "http://", "http://a b", "vouch"])]
            elif choice == "missing":
                argv.append(rng.choice(["--server", "--token"]))
            elif self.made_up_tokens < MADE_UP_TOKENS:
                self.made_up_tokens += 1
                argv += ["--token", "vch_" + "0" * 40]
                allowed.add(77)
        if any(word == "--output" or (isinstance(word, str) and word.startswith("--output=")) for word in argv):
            allowed.add(1)  # a local file that cannot be written: the machine failed, not the command line
        return kind, argv, allowed


def write_files(directory: pathlib.Path, seeded: Seeded) -> None:
    record = {"tester": seeded.testers[0], "verdict": "passed", "task_outcome": "completed_with_workaround",
              "severity": "minor", "platform": "ios", "os_version": "18.2", "app_build": "5.4.1 (412)",
              "assistive_tech": "voiceover"}
    (directory / "feedback.json").write_text(json.dumps(record))
    (directory / "batch.json").write_text(json.dumps([record, {**record, "tester": seeded.testers[1]}]))
    (directory / "bad.json").write_bytes(b'{"tester": "t_\xff", "verdict": [')
    (directory / "huge.json").write_text(json.dumps({**record, "comment": "x" * (1024 * 1024)}))


def test_random_command_lines_never_crash_vouch(vouchd, tmp_path, refusing_port):
    binary = vouch_binary()
    leaves = read_tree(binary)
    assert len(leaves) >= 40, f"only {len(leaves)} commands found in vouch's help"
    seeded = seed(vouchd, f"http://127.0.0.1:{refusing_port}")
    work = tmp_path / "cwd"
    work.mkdir()
    write_files(work, seeded)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("VOUCH")}
    environment.update({"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": vouchd.admin_token, "LANG": "C.UTF-8"})
    generator = Generator(random.Random(SEED), leaves, seeded, refusing_port)

    by_status: collections.Counter[int] = collections.Counter()
    by_kind: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    problems: list[str] = []
    started = time.monotonic()
    for number in range(INVOCATIONS):
        kind, argv, allowed = generator.next()
        command = [binary, *argv]
        # Half the invocations name the server and token with the global options instead of the environment.
        invocation_environment = environment
        if number % 2 and "--server" not in argv and "--token" not in argv:
            command = [binary, "--server", vouchd.url, "--token", vouchd.admin_token, *argv]
            invocation_environment = {key: value for key, value in environment.items()
                                      if key not in ("VOUCH_URL", "VOUCH_TOKEN")}
        shown = " ".join(repr(word[:60]) + (f"...({len(word)} long)" if len(word) > 60 else "") for word in argv)
        try:
            finished = subprocess.run(command, cwd=work, env=invocation_environment, stdin=subprocess.DEVNULL,
                                      capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            by_kind[kind]["timeout"] += 1
            problems.append(f"invocation {number} ({kind}) did not end within {TIMEOUT:.0f} s: vouch {shown}")
            continue
        status = finished.returncode
        by_status[status] += 1
        by_kind[kind][status] += 1
        stderr = finished.stderr.decode("utf-8", "replace")
        if status < 0:
            problems.append(f"invocation {number} ({kind}) was killed by signal {-status}: vouch {shown}\n{stderr[:2000]}")
        elif status not in allowed:
            problems.append(f"invocation {number} ({kind}) exited {status}, allowed {sorted(allowed)}: vouch {shown}\n"
                            f"stderr: {stderr[:1000]}")
        if CRASH_SIGNS.search(stderr):
            problems.append(f"invocation {number} ({kind}) printed a crash report: vouch {shown}\n{stderr[:2000]}")
        if status > 0 and not stderr.startswith("Error: "):
            problems.append(f"invocation {number} ({kind}) exited {status} without 'Error: ...' first on stderr: "
                            f"vouch {shown}\nstderr: {stderr[:500]!r}")
    elapsed = time.monotonic() - started

    print(f"\nCLI fuzz seed: {SEED}")
    print(f"invocations: {INVOCATIONS}")
    print(f"seconds: {elapsed:.1f}")
    for status, count in sorted(by_status.items()):
        print(f"exit status {status}: {count}")
    for kind, statuses in sorted(by_kind.items()):
        detail = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items(), key=str))
        print(f"kind {kind}: {sum(statuses.values())} invocations; by exit status {detail}")
    print(f"problems: {len(problems)}")
    assert not problems, f"{len(problems)} problems; the first ones:\n" + "\n\n".join(problems[:15])
    # The fuzz must have reached both the server's refusals and some successes, not only usage errors.
    assert by_status[0] >= 20 and by_status[64] >= 100 and by_status[65] >= 20, dict(by_status)
    # The admin token still works: no made-up token got the address blocked, no fuzzed command revoked it.
    assert vouchd.call("GET", "/v1/tokens?limit=1").status == 200


def test_help_and_version_given_a_value_are_named_as_taking_none(tmp_path):
    for option in ("--help", "--version"):
        finished = subprocess.run([vouch_binary(), "fix", "list", f"{option}=me"], cwd=tmp_path, capture_output=True,
                                  text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT,
                                  env={"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"})
        assert finished.returncode == 64
        assert finished.stderr.startswith(f"Error: '{option}' does not take a value."), finished.stderr


def test_an_empty_token_option_is_refused_rather_than_replaced(tmp_path):
    finished = subprocess.run([vouch_binary(), "fix", "list", "--token="], cwd=tmp_path, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=TIMEOUT,
                              env={"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "VOUCH_TOKEN": "vch_from_environment"})
    assert finished.returncode == 64
    assert finished.stderr.startswith("Error: Invalid value '' for '--token <token>'"), finished.stderr
