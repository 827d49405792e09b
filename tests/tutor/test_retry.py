"""tutor.store.retry: a busy store is waited for with a growing pause; anything else is raised at
once. Both writers (attempts and drafts) use this one rule."""

from __future__ import annotations

import pytest

from tutor.store.errors import StoreUnavailable
from tutor.store.retry import retry_while_busy


def failing(codes: list[str], result: str = "written"):
    """A write that raises StoreUnavailable with each code in turn, then returns `result`."""
    calls = []

    def write() -> str:
        calls.append(len(calls))
        if len(calls) <= len(codes):
            raise StoreUnavailable(codes[len(calls) - 1])
        return result

    return write, calls


@pytest.mark.parametrize("busy", ["locked", "unreachable"])
def test_a_busy_store_is_tried_again_until_it_takes_the_write(busy):
    write, calls = failing([busy] * 5)
    pauses, retries = [], []
    assert retry_while_busy(write, first_delay=0.05, max_delay=0.3, sleep=pauses.append,
                            before_retry=lambda: retries.append(1)) == "written"
    assert len(calls) == 6 and len(retries) == 5
    assert pauses == [0.05, 0.1, 0.2, 0.3, 0.3]  # doubling, capped at max_delay


@pytest.mark.parametrize("code", ["corrupt", "unwritable", "newer-schema"])
def test_a_store_refusing_for_its_own_state_is_not_retried(code):
    write, calls = failing(["locked", code])
    pauses = []
    with pytest.raises(StoreUnavailable) as raised:
        retry_while_busy(write, first_delay=0.01, max_delay=1, sleep=pauses.append)
    assert raised.value.code == code and len(calls) == 2 and pauses == [0.01]


def test_any_other_error_is_raised_at_once():
    def write():
        raise ValueError("bad attempt")

    pauses = []
    with pytest.raises(ValueError, match="bad attempt"):
        retry_while_busy(write, first_delay=0.01, max_delay=1, sleep=pauses.append)
    assert pauses == []
