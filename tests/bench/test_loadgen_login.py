"""The load generator's browser-like login: cookies kept and dropped as a browser does, and no
request ever leaves this machine."""

import pytest

from bench.loadgen.connection import NotLoopback
from bench.loadgen.login import _keep, _request


def test_cookies_are_kept_replaced_and_deleted():
    jar = {"TUTOR_APP": "app1", "_streamlit_session": "old"}
    _keep(jar, ["_streamlit_user=abc|def; Path=/; HttpOnly; SameSite=Lax",
                "_streamlit_session=; Max-Age=0; Path=/",
                "TUTOR_APP=app2; path=/"])
    assert jar == {"TUTOR_APP": "app2", "_streamlit_user": "abc|def"}


@pytest.mark.parametrize("url", ["http://192.168.1.10:8501/auth/login", "http://example.com/"])
def test_a_login_request_to_another_machine_is_refused(url):
    with pytest.raises(NotLoopback):
        _request("GET", url, {})
