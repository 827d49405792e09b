"""The app's shell: page config, the app's frame (language switch, profile picker, or sign-in in
a class deployment: app_pages/widgets/auth.py) and the navigation. It calls server tuning's two hooks,
first thing and last (they do nothing unless the server was started tuned; `server_tuning`).

Run with `make run` (`python -m server_tuning`: the first page preloaded, the warm-up after it,
sessions of learners who left released); `.venv/bin/streamlit run streamlit_app.py` serves the
same app untuned. Every page lives in `app_pages/`; this file must stay light because it runs
before the first page renders.
"""

import server_tuning

# First, before the app's imports: the first run must not import alongside the preload.
server_tuning.run_starts()

import streamlit as st  # noqa: E402

from app_pages import PAGES, favicon  # noqa: E402
from app_pages.state import holds_unsaved_answers, init_session, lang, language_switch, tr  # noqa: E402
from app_pages.widgets.assistive import assistive_frame  # noqa: E402
from app_pages.widgets.auth import account_box, class_mode, hide_error_details, may_teach, sign_in  # noqa: E402
from app_pages.widgets.formula_style import keep_formulas_whole  # noqa: E402
from app_pages.widgets.progress import profile_picker  # noqa: E402
from app_pages.widgets.site_menu import site_menu  # noqa: E402

init_session()
st.set_page_config(page_title=tr("common.app_name"), page_icon=favicon(), layout="wide")
assistive_frame(lang())  # <html lang>, the live region for previews and verdicts, focus outline
class_deployment = class_mode()  # login configured: accounts and roles
if class_deployment:
    hide_error_details()  # no traceback reaches a learner
    sign_in()  # the login screen (run stops) or the signed-in identity's own profile

teaching = may_teach()
sections: dict[str, list] = {}
for n, spec in enumerate(s for s in PAGES if teaching or not s.instructor):
    title, section = tr(spec.title_key), sections.setdefault(tr(spec.section_key), [])
    if n == 0:
        # Streamlit serves the default page at `/` only: its own url_path answers "Page not
        # found". The README's links name it (`practice?q=<id>`), so the same script is also a
        # hidden page at that path; the default page's own path is one no link uses.
        section.append(st.Page(spec.path, title=title, icon=spec.icon, default=True,
                               url_path=f"{spec.url_path}-at-root"))
        section.append(st.Page(spec.path, title=title, icon=spec.icon, url_path=spec.url_path,
                               visibility="hidden"))
    else:
        section.append(st.Page(spec.path, title=title, icon=spec.icon, url_path=spec.url_path))

# Streamlit's sectioned menu is not a valid list (issue 31): it routes, ours is drawn (site_menu).
current = st.navigation(sections, position="hidden")
site_menu(sections)
language_switch()
if class_deployment:
    account_box()  # who is signed in, "Sign out"; no picker: the profile is the identity's
else:
    profile_picker()  # the one current profile, chosen here for every page (widgets.current_profile)
st.sidebar.caption(f"**{tr('common.app_name')}** · {tr('common.tagline')}")
keep_formulas_whole()  # on a phone, an inline formula scrolls rather than breaking in two
try:
    current.run()
finally:
    # the warm-up waits for the first run, so the first page comes first; the reaper keeps a
    # session whose run was cut short before recording its graded answers
    server_tuning.run_finished(unsaved=holds_unsaved_answers)
