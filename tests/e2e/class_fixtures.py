"""The login side of the class-mode browser tests: a real OpenID Connect provider process
(`oidc-provider-mock`, module-scoped) with three people, and signing in through it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.learner_steps import main
from tests.e2e.server import free_port, wait_idle

USERS = [
    {"sub": "ada-sub", "name": "Ada", "email": "ada@school.test"},
    {"sub": "bo-sub", "name": "Bo", "email": "bo@school.test"},
    {"sub": "lee-sub", "name": "Lee", "email": "lee@school.test"},
]


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


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oidc")
    port = free_port()
    log = folder / "provider.log"
    command = [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)]
    for user in USERS:
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


def sign_in(page, base_url: str, sub: str) -> None:
    page.goto(f"{base_url}/?lang=en")
    main(page).get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=sub, exact=True).click()  # the provider's form
    page.wait_for_url(f"{base_url}/**")
    page.wait_for_selector('[data-testid="stSidebarNav"]', state="attached")
    main(page).locator("h1").first.wait_for()
    wait_idle(page)


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')
