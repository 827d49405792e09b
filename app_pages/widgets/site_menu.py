"""The sidebar's menu of pages, drawn with `st.page_link` under each section's name.

Streamlit's own menu for a sectioned `st.navigation` is not a valid list: its `<ul>` holds the
section headers' `<div>`s and its `<li>`s sit outside any list (issue 31: 12 serious axe findings
on every page, in both languages, on a phone and a desktop). The shell therefore hides that menu
(`st.navigation(..., position="hidden")` still routes every page) and draws this one: plain links,
each section's name above its links. The menu is the container keyed `site_nav`
(`.st-key-site_nav` in the browser), what the browser tests find the navigation by.
"""

from __future__ import annotations

import streamlit as st

MENU_KEY = "site_nav"


def site_menu(sections: dict[str, list]) -> None:
    """Section name -> its `st.Page`s, in menu order; hidden pages are routed, not listed."""
    with st.sidebar.container(key=MENU_KEY):
        for section, pages in sections.items():
            shown = [p for p in pages if p.visibility != "hidden"]
            if not shown:
                continue
            # Not a heading: the page's own h1 is the first heading a screen reader meets.
            st.markdown(f"**{section}**")
            for page in shown:
                st.page_link(page, label=page.title, icon=page.icon)
