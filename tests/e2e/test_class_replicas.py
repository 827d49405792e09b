"""The class deployment as `make serve-class` starts it (scripts/serve_class.sh: replicas behind
HAProxy, login configured from the environment), in a real browser against a real OIDC provider:
a learner signs in through the proxy and practises; the replica serving her is killed; loading the
page again (what the tab's own reconnect does) reaches the other replica through the proxy, still
signed in as herself, and she carries on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.class_fixtures import (  # noqa: F401
    consecutive_free_ports,
    deployment_folder,
    provider,
    sidebar,
    sign_in,
)
from tests.e2e.learner_steps import main, pick_radio, submit_and_verdict
from tests.e2e.server import ROOT, free_port, wait_idle
from tutor.store import ProgressStore

QUESTIONS = ("basics-residual-block-form", "basics-degradation-training-error")  # choices


@pytest.fixture
def deployment(provider, tmp_path):  # noqa: F811
    with deployment_folder("class-replicas-") as folder:
        yield from _deployment(provider, tmp_path, folder)


def _deployment(provider, tmp_path, folder):  # noqa: F811
    port = free_port()
    run_dir = tmp_path / "run"
    database_url = f"sqlite:///{folder / 'progress.db'}"
    env = {**os.environ, "TUTOR_DATABASE_URL": database_url, "PORT": str(port),
           "APP_PORT_BASE": str(consecutive_free_ports(2)), "RUN_DIR": str(run_dir),
           "STATE_DIR": str(folder / "state"), "TUTOR_BANK_PATHS": str(folder / "bank"),
           "TUTOR_SPOOL_DIR": str(folder / "spool"),
           "TUTOR_OIDC_METADATA_URL": f"{provider}/.well-known/openid-configuration",
           "TUTOR_OIDC_CLIENT_ID": "residual-tutor", "TUTOR_OIDC_CLIENT_SECRET": "e2e-only",
           "TUTOR_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(["bash", "scripts/serve_class.sh", "2"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while "Residual Tutor (class)" not in (tmp_path / "serve.log").read_text():
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        pids = _current_pids(run_dir)
        yield {"url": f"http://127.0.0.1:{port}", "pids": pids, "database_url": database_url,
               "run_dir": run_dir, "spool": folder / "spool",
               "secrets": folder / "state" / "auth.toml"}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def test_a_signed_in_learner_carries_on_when_her_replica_dies(deployment, browser):
    base = deployment["url"]
    assert deployment["secrets"].stat().st_mode & 0o077 == 0  # written for the replicas, private
    context = browser.new_context(viewport={"width": 1400, "height": 950}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    sign_in(page, base, "ada-sub")
    expect(sidebar(page)).to_contain_text("Signed in as Ada")
    page.goto(f"{base}/?lang=en&q={QUESTIONS[0]}")
    wait_idle(page)
    pick_radio(page, 0)
    assert submit_and_verdict(page) == "Correct"

    serving = _serving(context)
    killed = deployment["pids"][serving]
    os.kill(killed, signal.SIGKILL)
    # The tab notices, reconnects through the proxy and runs the page again: on the other
    # replica, or on hers when the supervisor has restarted it before the proxy's health check
    # saw it down (about 1 s; both happen)
    page.goto(f"{base}/?lang=en&q={QUESTIONS[0]}")
    wait_idle(page)
    expect(sidebar(page)).to_contain_text("Signed in as Ada")
    expect(main(page)).to_contain_text("Correct")  # her draft: the answer she gave before
    assert _served_by_another_process(context, deployment, serving, killed)
    page.goto(f"{base}/?lang=en&q={QUESTIONS[1]}")
    wait_idle(page)
    pick_radio(page, 0)
    assert submit_and_verdict(page)  # any verdict: the answer was graded on the other replica

    store = ProgressStore.open(deployment["database_url"])
    ada = next(p for p in store.list_profiles() if p.name == "Ada")
    # Saved means in the database or in a replica's spool, which its writer empties as soon as
    # SQLite's lock is free (a replica being restarted beside it takes it for its start-up)
    deadline = time.monotonic() + 30
    while store.count_attempts(ada.id) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    spooled = sorted(str(p.relative_to(deployment["spool"])) for p in
                     deployment["spool"].rglob("*") if p.is_file())
    profiles = [(p.id, p.name, store.count_attempts(p.id)) for p in store.list_profiles()]
    assert store.count_attempts(ada.id) == 2 and len(profiles) == 1, (profiles, spooled)
    store.close()
    context.close()


# The tab's connection as Streamlit shows it: lost (any state but CONNECTED), then back.
WATCH_CONNECTION = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  window.__lostConnection = false;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') window.__lostConnection = true;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-connection-state']});
}"""
RECONNECTED = """() => window.__lostConnection && document.querySelector('[data-testid=stApp]')
  .getAttribute('data-test-connection-state') === 'CONNECTED'"""


def _current_pids(run_dir) -> dict[str, int]:
    """The replicas' pids now (the supervisor rewrites the file when it restarts one)."""
    return {line.split()[0]: int(line.split()[1])
            for line in (run_dir / "pids").read_text().splitlines() if line.strip()}


def _serving(context) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "TUTOR_APP")


def _served_by_another_process(context, deployment, name: str, killed: int) -> bool:
    """The tab is served by the other replica, or by hers restarted (the supervisor restarts a
    dead replica within about a second, which can be before the proxy's health check sees it
    down: then the tab reconnects to the new process under the same name)."""
    return _serving(context) != name or _current_pids(deployment["run_dir"])[name] != killed


INTERVIEW_ANSWER = "Residuals keep an identity path for the gradient"


def _interview_started(browser, base: str):
    """Ada signed in, a one-question interview started, the answer box focused."""
    context = browser.new_context(viewport={"width": 1400, "height": 950}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    sign_in(page, base, "ada-sub")
    page.goto(f"{base}/interview?lang=en")
    wait_idle(page)
    main(page).get_by_role("button", name="Start the interview").click()
    expect(main(page).get_by_text("Question 1 of", exact=False)).to_be_visible()
    box = main(page).get_by_label("Your answer, as you would say it in an interview", exact=True)
    box.click()
    return context, page, box


def test_the_interview_answer_being_written_survives_her_replica(deployment, browser):
    # Issue 28: the words of a mock-interview answer were lost when the replica died (Practice
    # keeps its draft). Typed, the box left (the text reaches the server), the replica killed:
    # the tab reconnects to the other one, and the interview comes back with the words.
    base = deployment["url"]
    context, page, box = _interview_started(browser, base)
    box.press_sequentially(INTERVIEW_ANSWER)
    box.press("Tab")  # leaving the box sends the text
    wait_idle(page)
    time.sleep(1.0)  # the draft is written off the script run, moments later

    serving = _serving(context)
    killed = deployment["pids"][serving]
    os.kill(killed, signal.SIGKILL)
    page.goto(f"{base}/interview?lang=en")
    wait_idle(page)
    expect(sidebar(page)).to_contain_text("Signed in as Ada")
    box = main(page).get_by_label("Your answer, as you would say it in an interview", exact=True)
    expect(box).to_have_value(INTERVIEW_ANSWER)
    assert _served_by_another_process(context, deployment, serving, killed)


def test_the_interview_words_still_being_typed_survive_the_tabs_reconnect(deployment, browser):
    # Issue 28: words typed but not sent yet (the box still has the focus) were wiped when the
    # tab reconnected to another replica: the new session put the draft's empty answer back into
    # the box. Practice's boxes kept theirs; now the interview's does too.
    base = deployment["url"]
    context, page, box = _interview_started(browser, base)
    box.press_sequentially(INTERVIEW_ANSWER)  # still focused: nothing sent to the server
    time.sleep(1.0)  # the empty draft of this question is written meanwhile

    serving = _serving(context)
    killed = deployment["pids"][serving]
    page.evaluate(WATCH_CONNECTION)
    os.kill(killed, signal.SIGKILL)
    # the tab notices it lost its server, and reconnects through the proxy
    page.wait_for_function(RECONNECTED, timeout=60_000)
    assert _served_by_another_process(context, deployment, serving, killed)
    wait_idle(page)
    expect(sidebar(page)).to_contain_text("Signed in as Ada")
    expect(main(page).get_by_text("Question 1 of", exact=False)).to_be_visible()
    expect(box).to_have_value(INTERVIEW_ANSWER)
