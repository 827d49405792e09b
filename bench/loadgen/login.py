"""Sign a simulated learner in through the app's OpenID Connect login, as a browser does.

1. the login screen's button: the server answers with an `auth_redirect` to `/auth/login?...`;
2. that URL (through the proxy, with the tab's cookies) redirects to the provider's authorize page;
3. the provider's form is posted with the learner's subject (`oidc-provider-mock` signs anyone in);
4. the provider redirects to the app's `/oauth2callback`, which sets the signed login cookie.
The tab then opens again with those cookies and the session is signed in.

Only loopback URLs are followed (the provider and the app both run on this machine).
"""

from __future__ import annotations

import asyncio
import http.client
from urllib.parse import urlencode, urljoin, urlsplit

from bench.loadgen.connection import AppTab, TabError, require_loopback


def _request(method: str, url: str, cookies: dict[str, str], body: str | None = None,
             timeout: float = 30.0) -> tuple[int, str | None, list[str]]:
    """(status, Location, Set-Cookie values) of one request, redirects not followed."""
    require_loopback(url)
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location"), response.headers.get_all(
            "Set-Cookie") or []
    except OSError as exc:
        raise TabError(f"login request failed: {exc!r}") from None
    finally:
        connection.close()


def _keep(cookies: dict[str, str], set_cookies: list[str]) -> None:
    for line in set_cookies:
        name, _, value = line.split(";", 1)[0].partition("=")
        if "max-age=0" in line.lower() or value.strip('"') == "":
            cookies.pop(name.strip(), None)
        else:
            cookies[name.strip()] = value


def _sign_in_over_http(base_url: str, login_path: str, subject: str,
                       cookies: dict[str, str]) -> None:
    app_cookies = dict(cookies)
    status, location, set_cookies = _request("GET", urljoin(base_url + "/", login_path), app_cookies)
    _keep(app_cookies, set_cookies)
    if status not in (302, 303, 307) or not location:
        raise TabError(f"login: /auth/login answered {status}")
    status, callback, _ = _request("POST", location, {}, urlencode({"sub": subject}))
    if status not in (302, 303) or not callback:
        raise TabError(f"login: the provider answered {status}")
    status, _, set_cookies = _request("GET", callback, app_cookies)
    _keep(app_cookies, set_cookies)
    if status not in (302, 303, 307) or not any(k.startswith("_streamlit_user") for k in app_cookies):
        raise TabError(f"login: the callback answered {status} without a login cookie")
    cookies.clear()
    cookies.update(app_cookies)


async def sign_in(tab: AppTab, subject: str) -> AppTab:
    """Press the login screen's button, sign in as `subject`; returns a new, signed-in tab."""
    button = tab.page.loose_submit()
    if button is None:
        raise TabError("login: no sign-in button on the first page")
    tab.auth_redirect = None
    await tab.rerun(click=button)
    if not tab.auth_redirect:
        raise TabError("login: the button did not redirect to the login")
    cookies = dict(tab.cookies)
    await asyncio.to_thread(_sign_in_over_http, tab.base_url, tab.auth_redirect, subject, cookies)
    await tab.close()
    signed_in = AppTab(tab.base_url, page=tab.page_name, query=tab.page.query_string,
                       timeout=tab.timeout, on_send=tab.on_send, cookies=cookies)
    await signed_in.open()
    return signed_in
