"""A PostgreSQL cluster of a benchmark's own (`scripts/start_postgres.sh` with a cluster name and
port of its own), so stopping or restarting it mid-run touches no other database.

    CLUSTER = OwnPostgres("classload", port=5441, database="tutor_load", role="tutor_load")
    url = CLUSTER.start()          # started (made if need be); its URL
    reset_postgres(url)            # every table dropped: the app migrates it afresh
    CLUSTER.ctl("restart")         # pg_ctlcluster <version> classload restart
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.tutor.conftest import reset_postgres

__all__ = ["OwnPostgres", "reset_postgres"]

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class OwnPostgres:
    cluster: str
    port: int
    database: str
    role: str

    def env(self) -> dict[str, str]:
        return {"TUTOR_PG_CLUSTER": self.cluster, "TUTOR_PG_PORT": str(self.port),
                "TUTOR_DB_NAME": self.database, "TUTOR_DB_ROLE": self.role}

    def start(self) -> str:
        """Start the cluster (made if need be) and return the database's URL."""
        out = subprocess.run(["bash", "scripts/start_postgres.sh"], cwd=ROOT,
                             env={**os.environ, **self.env()}, check=True, capture_output=True,
                             text=True)
        return out.stdout.strip().splitlines()[-1]

    def ctl(self, action: str, *options: str) -> None:
        """`pg_ctlcluster <newest version> <cluster> <action> <options>`."""
        version = sorted(os.listdir("/usr/lib/postgresql"), key=int)[-1]
        subprocess.run(["pg_ctlcluster", version, self.cluster, action, *options], check=True,
                       capture_output=True)
