"""A contained worker: a long-lived child interpreter that answers JSON lines, supervised.

    supervisor = Supervisor("grader.worker_main", startup_timeout=60, keep_spare=True)
    supervisor.start()                                   # spawn and wait for {"ready": true}
    reply = supervisor.request({"job": "grade", ...}, timeout=1.5)   # one line out, one back

The parent side (`contained.supervisor`) spawns `python -m <module>` (a fresh interpreter, never
a fork of the caller), waits for it to say it is ready, sends one JSON object per line and
reads one back with `select` under a timeout, kills a child that hangs and replaces one that
died. The child side (`contained.child`) keeps stdout for the channel only, says when it is
ready, answers each line, and may cap its own address space.

`grader.worker` (answers graded by sympy, under a memory cap, with a warm spare) and
`compute.worker` (torch kept out of the app's heap) are both built on it. This package imports
nothing of the project, so both leaves may import it.
"""

from contained.supervisor import NoReply, Supervisor, WorkerUnavailable

__all__ = ["NoReply", "Supervisor", "WorkerUnavailable"]
