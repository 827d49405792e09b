import pytest

from grader.kinds.request import grade_request


@pytest.fixture
def grade():
    """Grade one request in-process (the same code the worker runs)."""

    def _grade(**request):
        return grade_request(request)

    return _grade
