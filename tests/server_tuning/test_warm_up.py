"""The warm-up after the first page, run for real in this process: the compute worker asked for
first, then every page module imported, then the bank built, then one collection and the freeze
(what was garbage is collected, not frozen); a compute worker that cannot start is logged and the
rest still runs; the grader's worker is started, and a failure to start it never raises."""

from __future__ import annotations

import gc
import importlib
import logging
import sys
import weakref
from types import SimpleNamespace

import pytest

import compute.worker
from app_pages.widgets import resources
from server_tuning import warm_up


@pytest.fixture
def steps(monkeypatch):
    """What the warm-up does, in order: the real imports, bank and freeze, each noted first."""
    done: list[str] = []
    real_import, real_bank, real_freeze = importlib.import_module, resources.bank, gc.freeze
    # the warm-up's own imports only (a library importing lazily meanwhile is not one of them)
    monkeypatch.setattr(warm_up, "importlib", SimpleNamespace(
        import_module=lambda name: (done.append(name), real_import(name))[1]))
    monkeypatch.setattr(resources, "bank", lambda: (done.append("bank"), real_bank())[1])
    monkeypatch.setattr(gc, "freeze", lambda: (done.append("freeze"), real_freeze())[1])
    yield done
    gc.unfreeze()  # the test process's heap is collected as usual again


def test_the_worker_is_asked_for_then_the_pages_modules_then_the_bank_then_the_freeze(
        steps, monkeypatch):
    # The worker's child process imports torch (seconds of CPU): its own tests start it; here the
    # call is noted, the rest is real.
    monkeypatch.setattr(compute.worker, "start", lambda: steps.append("compute worker"))
    warm_up.start_worker_load_and_freeze()
    assert steps == ["compute worker", *warm_up.PAGE_MODULES, "bank", "freeze"]
    assert all(name in sys.modules for name in warm_up.PAGE_MODULES)
    assert gc.get_freeze_count() > 0


def test_what_is_garbage_at_the_freeze_is_collected_not_frozen(steps, monkeypatch):
    monkeypatch.setattr(compute.worker, "start", lambda: None)

    class Node:
        pass

    gc.disable()  # only the warm-up's own collection may free the cycle
    try:
        cycle = Node()
        cycle.me = cycle
        alive = weakref.ref(cycle)
        del cycle
        warm_up.start_worker_load_and_freeze()
        assert alive() is None
    finally:
        gc.enable()


def test_a_compute_worker_that_cannot_start_is_logged_and_the_rest_still_loads(steps, monkeypatch,
                                                                              caplog):
    def no_torch():
        raise RuntimeError("compute worker exited: No module named 'torch'")

    monkeypatch.setattr(compute.worker, "start", no_torch)
    monkeypatch.setattr(warm_up.log, "propagate", True)  # to caplog
    with caplog.at_level(logging.WARNING, logger="server_tuning"):
        warm_up.start_worker_load_and_freeze()
    assert "compute worker not started (compute worker exited: No module named 'torch')" in caplog.text
    assert steps[-2:] == ["bank", "freeze"] and gc.get_freeze_count() > 0


def test_the_grader_warm_up_starts_its_worker(monkeypatch):
    import grader.worker

    monkeypatch.setattr(grader.worker, "_shared", None)  # a worker of this test's own, not started
    assert grader.worker.shared_worker().pid is None
    warm_up.warm_grader()
    worker = grader.worker.shared_worker()
    try:
        assert worker.pid is not None  # the first symbolic answer does not wait for it
    finally:
        worker.close()


def test_a_grader_worker_that_cannot_start_does_not_stop_the_server(monkeypatch):
    from grader.worker import shared_worker

    def cannot(self=None):
        raise OSError("Resource temporarily unavailable")  # fork refused on a full machine

    monkeypatch.setattr(type(shared_worker()), "start", cannot)
    warm_up.warm_grader()  # returns: the first answer that needs the worker says what failed
