"""A team with a team sender, as real processes: the sender's profile (an environment and
its key file), a maker's profile (the same environment, no key), and a gateway stand-in that
counts what reaches it; or the team sender in the test's own process (:func:`sender_here`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.helpers.http_server import Received, Reply
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, payout_values, register_policy

SENDER = "sendbot"


@dataclass
class Gateway:
    """Answers payouts (after ``delay`` seconds) and status questions; counts payouts."""

    delay: float = 0.0
    payouts: Counter[str] = field(default_factory=Counter)
    bodies: list[dict[str, str]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # when each payout came (monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: Received) -> Reply:
        values = dict(parse_qsl(request.body.decode()))
        order = values.get("client_orderid", "")
        if "/status/" in request.path:
            with self.lock:
                seen = order in self.payouts
            status = "approved" if seen else "unknown"
            body = f"type=status-response\n&status={status}\n&merchant-order-id={order}\n"
            return Reply(200, body.encode(), FORM)
        with self.lock:
            self.payouts[order] += 1
            self.bodies.append(values)
            self.arrived.append(time.monotonic())
        return Reply(200, accepted(order, str(9000 + len(self.bodies))), FORM, delay=self.delay)


@dataclass
class Profile:
    """One person's console profile, run as its own process."""

    home: Path
    dsn: str
    log_of: dict[int, Path] = field(default_factory=dict)

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "GATEWAY_CONSOLE_HOME": str(self.home),
            "GATEWAY_CONSOLE_TEAM_DSN": self.dsn,
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        }

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "console", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env,
            check=False,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done

    def start(self, *args: str, variables: Mapping[str, str] = {}) -> subprocess.Popen[str]:
        """``gateway-console ARGS`` started in the background (``variables`` added to its
        environment); its output goes to ``self.home/log-*.txt`` (:meth:`logs`)."""
        with (self.home / f"log-{time.monotonic_ns()}.txt").open("w") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "console", *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
                env={**self.env, **variables},
            )
        self.log_of[process.pid] = Path(log.name)
        return process

    def logs(self, process: subprocess.Popen[str] | None = None) -> str:
        paths = [self.log_of[process.pid]] if process else sorted(self.log_of.values())
        return "".join(p.read_text() for p in paths)


def owner_only_pem(path: Path, key: rsa.RSAPrivateKey) -> Path:
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    path.chmod(0o600)
    return path


@dataclass
class SenderTeam:
    """alice (maker, no key), bob (checker) and the sender, on one team database."""

    db: TeamDatabase
    sender: Profile
    alice: Profile
    bob: Profile
    key_file: Path
    seal_file: Path

    def start_sender(self, *extra: str, variables: Mapping[str, str] = {}) -> subprocess.Popen[str]:
        """The team sender of ``live`` (``extra``: more options, e.g. ``--concurrency 4``;
        ``variables``: added to its environment)."""
        return self.sender.start(
            "team",
            "sender",
            "--env",
            "live",
            "--key-file",
            str(self.key_file),
            "--seal-key-file",
            str(self.seal_file),
            "--poll",
            "0.2",
            *extra,
            variables=variables,
        )


def sender_team(
    db: TeamDatabase, tmp: Path, url: str, key: rsa.RSAPrivateKey, seal: rsa.RSAPrivateKey
) -> SenderTeam:
    from console.core.team import Approvals, TeamJournal

    with TeamJournal(db.dsn()) as owner:
        Approvals(owner).add_user(SENDER, "sender")
        # the team's gateway (on this computer, as the stand-in is): its policy lets payouts go
        register_policy(owner, "live", "none")
    people = {}
    for person in (SENDER, "alice", "bob"):
        profile = Profile(tmp / person, db.dsn(person))
        profile.home.mkdir()
        added = profile.run(
            "env", "add", "live", "--kind", "production", "--base-url", url, "--login",
            "merchant", "--endpoint-id", "1",
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
        people[person] = profile
    return SenderTeam(
        db,
        people[SENDER],
        people["alice"],
        people["bob"],
        owner_only_pem(tmp / SENDER / "merchant.pem", key),
        owner_only_pem(tmp / SENDER / "seal.pem", seal),
    )


def send_args(order: str, *extra: str, env: str = "live", card: bool = False) -> list[str]:
    """``gateway-console send payout-check`` of the example payout ``order`` to ``env``."""
    args = ["send", "payout-check", "--env", env, "--yes", *extra]
    for name, value in payout_values(order, card=card).items():
        args += ["-f", f"{name}={value}"]
    return args


def serving(db: TeamDatabase) -> bool:
    """Whether a team sender has started and said which environments it serves."""
    from console.core.team import connect

    with connect(db.dsn()) as sql:
        return bool(sql.execute("SELECT count(*) FROM gateway.senders").fetchone()[0])


def wait_for(predicate: object, timeout: float = 60.0, every: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(every)
    return False


def kill9(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            kill9(process)


@contextmanager
def sender_here(
    db: TeamDatabase, environment: str, url: str, key: rsa.RSAPrivateKey, seal: rsa.RSAPrivateKey
) -> Iterator[list[str]]:
    """The team sender of ``environment`` (payouts to ``url`` signed with ``key``, card data
    sealed to ``seal``) running in a thread of this test's process, as ``team sender`` runs
    it, so the money rules it calls are the code under test (coverage, mutation testing);
    gives what it says, and stops on leaving."""
    from console.core.team import Approvals, TeamJournal
    from console.sender.service import Route, Sender
    from tests.helpers.team import pipeline

    with TeamJournal(db.dsn()) as owner:
        Approvals(owner).add_user(SENDER, "sender")
    said: list[str] = []
    stop = threading.Event()
    settings = {"base_url": url, "login": "merchant", "private_key": key, "endpoint_id": "1"}
    with TeamJournal(db.dsn(SENDER)) as journal:
        route = Route(pipeline(journal, environment), lambda _command: settings)
        sender = Sender(journal, {environment: route}, seal, say=said.append)
        sender.start()
        thread = threading.Thread(target=sender.run, args=(stop, 0.1))
        thread.start()
        try:
            yield said
        finally:
            stop.set()
            thread.join(30)
