"""The app's shell: page config, the app's frame (language switch, profile picker, or sign-in in
a class deployment: app_pages/widgets/auth.py) and the navigation. It also runs the two pieces of server
tuning that hook into a script run: `app_pages.startup.prepare_process` (once per process: torch
work routed to the compute worker, the first run without collections or Streamlit's REPL check,
the warm-up after the first page) and `app_pages.session_reaper.note_this_session` (sessions of
learners who left are released).

Run with `make run` (`python -m app_pages.server`, which also preloads what the first page needs;
`.venv/bin/streamlit run streamlit_app.py` serves the same app, its first page slower). Every page
lives in `app_pages/`; this file must stay light because it runs before the first page renders.
"""

import streamlit as st

from app_pages import PAGES, favicon
from app_pages.session_reaper import note_this_session
from app_pages.startup import first_run_finished, prepare_process
from app_pages.state import init_session, lang, language_switch, tr
from app_pages.widgets.assistive import assistive_frame
from app_pages.widgets.auth import account_box, class_mode, hide_error_details, may_teach, sign_in
from app_pages.widgets.formula_style import keep_formulas_whole
from app_pages.widgets.progress import profile_picker
from app_pages.widgets.site_menu import site_menu

prepare_process()  # once per server, after the first page: load the pages' modules, freeze the heap
note_this_session()  # its state is released once the learner has left
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
    first_run_finished()  # the start-up work waits for it, so the first page comes first
