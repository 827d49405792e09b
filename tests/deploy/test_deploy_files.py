"""The supervisors shipped for real servers, checked where they can be run here (issue 28): the
systemd units pass `systemd-analyze verify` (no systemd runs in this container, but the verifier
does) and restart what dies; the compose file restarts every service and shares the question
folder; HAProxy accepts the filled-in configuration, with a "down" page apart from "busy"."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def _installed_units(tmp_path: Path) -> list[Path]:
    """The units as installed on a server, with this checkout as /opt/residual-tutor and the
    configuration files in `tmp_path` (verify checks that each command exists)."""
    (tmp_path / "env").write_text("")
    made = []
    for unit in sorted(UNITS.iterdir()):
        text = (unit.read_text().replace("/opt/residual-tutor", str(ROOT))
                .replace("/etc/residual-tutor", str(tmp_path)))
        name = unit.name.replace("@.service", "@8521.service")  # an instance of the template
        (tmp_path / name).write_text(text)
        made.append(tmp_path / name)
    return made


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_the_systemd_units_verify(tmp_path):
    units = _installed_units(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", *map(str, units)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_the_units_restart_what_dies_and_drop_root():
    replica = (UNITS / "residual-tutor@.service").read_text()
    proxy = (UNITS / "residual-tutor-proxy.service").read_text()
    assert "Restart=always" in replica and "Restart=always" in proxy
    assert "User=residual-tutor" in replica
    assert "User=residual-tutor" in (UNITS / "residual-tutor-retention.service").read_text()


def test_the_compose_file_restarts_every_service_and_shares_the_question_folder():
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {name: s.get("restart") for name, s in services.items()} == dict.fromkeys(
        services, "unless-stopped")
    apps = [s for name, s in services.items() if name.startswith("app")]
    assert apps and all("tutor-bank:/srv/tutor/bank" in s["volumes"] for s in apps)
    spools = {next(v for v in s["volumes"] if v.endswith(":/srv/tutor/spool")) for s in apps}
    assert len(spools) == len(apps)  # a spool each: a replica's segments are its own
    assert "USER residual-tutor" in (ROOT / "deploy" / "Dockerfile").read_text()


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy not installed")
def test_haproxy_accepts_the_configuration_with_its_down_page(tmp_path):
    text = (ROOT / "deploy" / "haproxy.cfg.in").read_text()
    for field, value in {"BIND": "127.0.0.1", "PORT": "8501", "APP_MAXCONN": "150",
                         "QUEUE_TIMEOUT": "5s", "GLOBAL_MAXCONN": "4096",
                         "BUSY_PAGE": str(ROOT / "deploy" / "busy.http"),
                         "DOWN_PAGE": str(ROOT / "deploy" / "down.html"), "COOKIE_SECURE": "",
                         "SECURE_COOKIES": "",
                         "SERVERS": "    server app1 127.0.0.1:8521 check cookie app1"}.items():
        text = text.replace(f"@{field}@", value)
    assert not re.search(r"@[A-Z_]+@", text)  # every field filled
    (tmp_path / "haproxy.cfg").write_text(text)
    done = subprocess.run(["haproxy", "-c", "-q", "-f", str(tmp_path / "haproxy.cfg")],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    down = (ROOT / "deploy" / "down.html").read_text()
    assert "not running" in down and "没有一台服务器在运行" in down
