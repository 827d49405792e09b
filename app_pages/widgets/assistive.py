"""What assistive technology needs from every page and Streamlit does not give (issue 31):

- the document's language (`<html lang="zh">` / `"en"`, WCAG 3.1.1), set with the switch, so a
  screen reader reads Chinese with a Chinese voice;
- one polite live region (WCAG 4.1.3) that repeats, as plain text, the "interpreted as" preview
  (or why the answer cannot be read) and the verdict's first line whenever they change: Streamlit
  redraws both as new elements, which a screen reader does not announce by itself;
- an inline formula wider than its column (it scrolls sideways: app_pages/widgets/formula_style.py)
  or a code block wider than its column (a derivation target shown verbatim, a caret under an
  unreadable answer) joins the Tab order, so the keyboard can scroll it too (WCAG 2.1.1);
- a focus outline on every focusable element (WCAG 2.4.7), in the theme's primaryColor

The script is ours and constant but for the language code (one of `LANGUAGES`, never user text);
the live region's text is copied with `textContent`, never parsed as HTML.
"""

from __future__ import annotations

import streamlit as st

from tutor.i18n import LANGUAGES

# Containers keyed with this prefix (`st.container(key=f"{LIVE_PREVIEW}-...")`) hold a preview.
LIVE_PREVIEW = "live-preview"
ANNOUNCER_ID = "tutor-announcer"

_SCRIPT = """<script>
(() => {
  document.documentElement.lang = "%(lang)s";
  if (document.getElementById("%(announcer)s")) return;
  const say = document.createElement("div");
  say.id = "%(announcer)s";
  say.setAttribute("role", "status");
  say.setAttribute("aria-live", "polite");
  say.setAttribute("aria-atomic", "true");
  say.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"
    + "white-space:nowrap;margin:-1px;padding:0;border:0";
  document.body.appendChild(say);
  const spoken = el => {
    // A formula: its MathML tokens (what KaTeX gives screen readers), not the glyphs and the TeX.
    const copy = el.cloneNode(true);
    copy.querySelectorAll(".katex-html, annotation").forEach(n => n.remove());
    return copy.textContent.replace(/\\s+/g, " ").trim();
  };
  const now = () => {
    const parts = [];
    document.querySelectorAll('[class*="st-key-%(preview)s"]').forEach(p => parts.push(spoken(p)));
    const verdict = document.querySelector('[class*="st-key-verdict-"] [data-testid="stAlertContainer"]');
    if (verdict) parts.push(spoken(verdict));
    return parts.filter(Boolean).join(". ");
  };
  const scrollable = () => document.querySelectorAll(
      "[data-testid=stMarkdownContainer] .katex, .stCode > pre")
    .forEach(k => {
      if (k.scrollWidth > k.clientWidth + 1) k.setAttribute("tabindex", "0");
      else if (k.getAttribute("tabindex") === "0") k.removeAttribute("tabindex");
    });
  scrollable();
  window.addEventListener("resize", scrollable);
  let last = now(), timer = null;
  new MutationObserver(() => {
    scrollable();  // at once (attributes are not observed: no loop), before anyone reads the page
    clearTimeout(timer);
    timer = setTimeout(() => {
      const text = now();
      if (text !== last) { last = text; say.textContent = text; }
    }, 300);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
})();
</script>"""

FOCUS_CSS = (
    "<style>"
    ":focus-visible {outline: 2px solid #1E5AD0 !important; outline-offset: 2px}"
    # a radio's or checkbox's own input is invisible: its label shows where the focus is
    "label:has(> input:focus-visible), label:has(input[type=radio]:focus-visible),"
    "label:has(input[type=checkbox]:focus-visible) {outline: 2px solid #1E5AD0; outline-offset: 2px}"
    # a heading's "Link to heading" anchor fades in on hover; reached by Tab it shows at once
    "[data-testid=stHeaderActionElements] a:focus-visible {opacity: 1 !important; transition: none}"
    "</style>"
)


def assistive_frame(lang: str) -> None:
    """Set the page's language, keep the live region and the focus outline (every run: the
    language may have just changed)."""
    if lang not in LANGUAGES:  # only the two codes ever reach the script (not stripped by -O)
        raise ValueError(f"unknown language {lang!r}")
    st.html(_SCRIPT % {"lang": lang, "announcer": ANNOUNCER_ID, "preview": LIVE_PREVIEW}
            + FOCUS_CSS, unsafe_allow_javascript=True)
