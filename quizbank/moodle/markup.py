"""Our Markdown subset <-> the HTML Moodle stores, with both languages in multilang spans.

The subset the bank uses: paragraphs (a blank line), line breaks, `- ` / `1. ` lists, `**bold**`,
`*italic*`, `` `code` ``, inline maths `$…$` and display maths `$$…$$`. Moodle's MathJax filter
reads `\\( … \\)` and `\\[ … \\]`, so maths is converted to those and back.

HTML coming from a Moodle file is untrusted: it is *read* by the standard library's tokenizer and
only text and the handful of tags above survive, as Markdown; scripts, styles, images from
elsewhere, links' targets and every other attribute are dropped (each drop is reported). Nothing is
ever rendered as HTML. An image embedded in the file (`<img src="@@PLUGINFILE@@/name">` with a
`<file name="name">` in the same field) becomes `![alt](stored name)` (`quizbank/images.py`), and
the export writes such a reference back as an `<img>` with its file.

Both languages travel in Moodle's multilang spans, `<span lang="en" class="multilang">…</span>`
(and `{mlang en}…{mlang}` of the newer multilang filter is read too); text outside the spans
belongs to every language.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import quote, unquote

from ..images import IMAGE_REF

MOODLE_LANG = {"en": "en", "zh": "zh_cn"}  # our language -> Moodle's language pack name
PLUGINFILE = "@@PLUGINFILE@@/"  # how Moodle's text refers to a file embedded in the question

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", re.S)
_BULLET = re.compile(r"^[-*] ")
_NUMBERED = re.compile(r"^\d+\. ")


# --- Markdown -> HTML (export) -----------------------------------------------------------------

def _inline(text: str) -> str:
    """One block's text: maths and code kept verbatim (escaped), then emphasis."""
    pieces, last = [], 0
    for match in re.finditer(r"\$\$.+?\$\$|\$.+?\$|`[^`]+`|" + IMAGE_REF.pattern, text, re.S):
        pieces.append(_emphasis(html.escape(text[last:match.start()], quote=False)))
        token = match.group(0)
        if token.startswith("!["):  # an image of the bank file's folder, attached by the export
            alt, name = match.group(1), match.group(2)
            pieces.append(f'<img src="{PLUGINFILE}{html.escape(quote(name))}" '
                          f'alt="{html.escape(alt.strip())}">')
        elif token.startswith("$$"):
            pieces.append(r"\[" + html.escape(token[2:-2], quote=False) + r"\]")
        elif token.startswith("$"):
            pieces.append(r"\(" + html.escape(token[1:-1], quote=False) + r"\)")
        else:
            pieces.append("<code>" + html.escape(token[1:-1], quote=False) + "</code>")
        last = match.end()
    pieces.append(_emphasis(html.escape(text[last:], quote=False)))
    return "".join(pieces).replace("\n", "<br>\n")


def _emphasis(text: str) -> str:
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    return _ITALIC.sub(r"<em>\1</em>", text)


_FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)\n```[ \t]*$", re.S | re.M)


def markdown_to_html(text: str) -> str:
    """One language's Markdown as Moodle HTML (fenced code as <pre><code>, kept verbatim)."""
    fences: list[str] = []

    def keep(match: re.Match) -> str:
        lang = f' class="language-{match.group(1)}"' if match.group(1) else ""
        fences.append(f"<pre><code{lang}>{html.escape(match.group(2), quote=False)}</code></pre>")
        return f"\n\n\x00{len(fences) - 1}\x00\n\n"

    blocks = []
    for block in re.split(r"\n\s*\n", _FENCE.sub(keep, text.strip()).strip()):
        if re.fullmatch(r"\x00\d+\x00", block.strip()):
            blocks.append(fences[int(block.strip()[1:-1])])
            continue
        lines = block.split("\n")
        if all(_BULLET.match(line) for line in lines):
            items = "".join(f"<li>{_inline(_BULLET.sub('', line, 1))}</li>" for line in lines)
            blocks.append(f"<ul>{items}</ul>")
        elif all(_NUMBERED.match(line) for line in lines):
            items = "".join(f"<li>{_inline(_NUMBERED.sub('', line, 1))}</li>" for line in lines)
            blocks.append(f"<ol>{items}</ol>")
        else:
            blocks.append(f"<p>{_inline(block)}</p>")
    return "\n".join(blocks)


def localized_to_html(texts: dict[str, str | None]) -> str:
    """Both languages in multilang spans; a text in one language as it is."""
    present = {lang: text for lang, text in texts.items() if text}
    if len(present) == 1:
        return markdown_to_html(next(iter(present.values())))
    return "".join(
        f'<span lang="{MOODLE_LANG[lang]}" class="multilang">{markdown_to_html(text)}</span>'
        for lang, text in present.items())


# --- HTML -> Markdown (import) -----------------------------------------------------------------

_DROPPED_WITH_CONTENT = {"script", "style", "head", "title", "iframe", "object", "svg", "math",
                         "textarea", "select", "button", "noscript", "template"}
_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "tr",
           "section", "article", "figure", "figcaption", "ul", "ol"}
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "code": "`", "tt": "`", "kbd": "`"}
_KNOWN = _BLOCKS | set(_EMPHASIS) | {"br", "li", "span", "td", "th", "tbody", "thead", "sup",
                                     "sub", "u", "font", "a", "html", "body", "hr", "center",
                                     "small", "big", "strike", "s", "del", "ins", "mark", "abbr"}
_MLANG2 = re.compile(r"\{mlang\s+([A-Za-z_-]+)\s*\}(.*?)\{mlang\}", re.S | re.I)


def our_lang(moodle_lang: str) -> str | None:
    code = moodle_lang.strip().lower().replace("-", "_")
    if code.startswith("en"):
        return "en"
    if code.startswith("zh"):
        return "zh"
    return None


class _ToMarkdown(HTMLParser):
    """Text and the subset's tags, per language. Every attribute is ignored."""

    def __init__(self, images: dict[str, str]):
        super().__init__(convert_charrefs=True)
        self.images = images  # Moodle's embedded file name -> the stored image's name
        self.images_used: set[str] = set()  # embedded names shown as images
        self.images_missing: set[str] = set()  # @@PLUGINFILE@@ images with no image to show
        self.out: list[tuple[str, str]] = []  # (language or "*" for every language, text)
        self.lang_stack: list[tuple[int, str]] = []  # (span depth where it opened, language)
        self.span_depth = 0
        self.skip_depth = 0
        self.lists: list[list] = []  # ["ul"|"ol", item count]
        self.dropped: set[str] = set()
        self.other_langs: set[str] = set()
        self.pre = 0  # inside <pre>: text kept verbatim, as a fenced code block

    @property
    def lang(self) -> str:
        return self.lang_stack[-1][1] if self.lang_stack else "*"

    def emit(self, text: str) -> None:
        self.out.append((self.lang, text))

    def handle_starttag(self, tag, attrs):
        if tag in _DROPPED_WITH_CONTENT:
            self.skip_depth += 1
            self.dropped.add(tag)
            return
        if self.skip_depth:
            return
        attrs = dict(attrs)
        if tag == "pre":
            self.pre += 1
            self.emit("\n\n```" + _code_language(attrs) + "\n")
            return
        if self.pre:
            if tag == "code":
                self._amend_fence_language(attrs)
            elif tag == "br":
                self.emit("\n")
            return
        if tag == "span":
            self.span_depth += 1
            if "multilang" in (attrs.get("class") or "").split() and attrs.get("lang"):
                lang = our_lang(attrs["lang"])
                if lang is None:
                    self.other_langs.add(attrs["lang"])
                    lang = "-"  # a language we do not teach in: collected, then dropped
                self.lang_stack.append((self.span_depth, lang))
        elif tag in _EMPHASIS:
            self.emit(_EMPHASIS[tag])
        elif tag == "br":
            self.emit("\n")
        elif tag in ("ul", "ol"):
            self.emit("\n\n")
            self.lists.append([tag, 0])
        elif tag == "li":
            kind = self.lists[-1] if self.lists else ["ul", 0]
            kind[1] += 1
            self.emit("\n" + ("- " if kind[0] == "ul" else f"{kind[1]}. "))
        elif tag in _BLOCKS:
            self.emit("\n\n")
        elif tag in ("td", "th"):
            self.emit(" ")
        elif tag in ("sup", "sub"):
            self.emit("^" if tag == "sup" else "_")
        elif tag == "img":
            self._image(attrs)
        elif tag not in _KNOWN:
            self.dropped.add(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in _DROPPED_WITH_CONTENT:
            self.skip_depth -= 1

    def handle_endtag(self, tag):
        if tag in _DROPPED_WITH_CONTENT:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if self.skip_depth:
            return
        if tag == "pre" and self.pre:
            self.pre -= 1
            self.emit("\n```\n\n")
            return
        if self.pre:
            return
        if tag == "span":
            if self.lang_stack and self.lang_stack[-1][0] == self.span_depth:
                self.lang_stack.pop()
            self.span_depth = max(0, self.span_depth - 1)
        elif tag in _EMPHASIS:
            self.emit(_EMPHASIS[tag])
        elif tag in ("ul", "ol"):
            if self.lists:
                self.lists.pop()
            self.emit("\n\n")
        elif tag in _BLOCKS:
            self.emit("\n\n")

    def handle_data(self, data):
        if self.skip_depth:
            return
        if self.pre:
            self.emit("\x01" + data.replace("\n", "\x02") + "\x01")  # verbatim, marked
        else:
            self.emit(_escape_markdown(re.sub(r"\s+", " ", data)))

    def _image(self, attrs: dict) -> None:
        """An embedded image becomes `![alt](stored name)`; any other image (a web address, a
        file not embedded or not an image we show) is left out and reported."""
        src = attrs.get("src") or ""
        if not src.startswith(PLUGINFILE):
            self.dropped.add("img")
            return
        name = unquote(src[len(PLUGINFILE):])
        stored = self.images.get(name)
        if stored is None:
            self.images_missing.add(name)
            return
        alt = re.sub(r"[\[\]\\$*_`\s]+", " ", attrs.get("alt") or "").strip()[:100]
        self.images_used.add(name)
        self.emit(f"![{alt}]({stored})")

    def _amend_fence_language(self, attrs) -> None:
        """`<pre><code class="language-python">`: the fence opened by <pre> gets the language."""
        lang = _code_language(attrs)
        for k in range(len(self.out) - 1, -1, -1):
            where, text = self.out[k]
            if text.endswith("```\n") and text.strip() == "```":
                self.out[k] = (where, text[:-1] + lang + "\n")
                return


def _code_language(attrs: dict) -> str:
    for name in (attrs.get("class") or "").split():
        if name.startswith("language-") and re.fullmatch(r"[A-Za-z0-9_+-]+", name[9:]):
            return name[9:]
    return ""


def _escape_markdown(text: str) -> str:
    """Plain text that must stay plain: a `$5` is not maths here (maths arrives as \\( \\)), and
    `![x](y)` typed as text is not an image (images arrive as <img>)."""
    return re.sub(r"(?<!\\)\$", r"\\$", text).replace("![", "!\\[")


def _maths_back(text: str) -> str:
    text = re.sub(r"\\\[(.+?)\\\]", lambda m: "$$" + m.group(1).strip() + "$$", text, flags=re.S)
    text = re.sub(r"\\\((.+?)\\\)", lambda m: "$" + m.group(1).strip() + "$", text, flags=re.S)
    # Moodle's TeX filter also reads $$…$$ as maths: it was escaped as text; take it back.
    return re.sub(r"\\\$\\\$(.+?)\\\$\\\$", lambda m: "$$" + m.group(1) + "$$", text, flags=re.S)


def _tidy(parts: list[str]) -> str:
    pieces = re.split(r"(\x01[^\x01]*\x01)", "".join(parts))
    out = []
    for k, piece in enumerate(pieces):
        if k % 2:  # code inside <pre>: exactly as written
            out.append(piece[1:-1].replace("\x02", "\n"))
            continue
        piece = re.sub(r"[ \t]*\n[ \t]*", "\n", piece)  # spaces around breaks come from HTML
        piece = re.sub(r"[ \t]{2,}", " ", piece)
        out.append(_maths_back(re.sub(r"\n{3,}", "\n\n", piece)))
    return "".join(out).strip()


class HtmlReading:
    """What an HTML field said: Markdown per language, and what was dropped on the way."""

    def __init__(self, texts: dict[str, str], dropped: set[str], other_langs: set[str],
                 images_used: set[str] = frozenset(), images_missing: set[str] = frozenset()):
        self.texts = texts  # {"en": …, "zh": …} (only languages that have text)
        self.dropped = dropped  # tag names left out (script, a web image, …)
        self.other_langs = other_langs  # multilang languages we do not teach in
        self.images_used = images_used  # embedded file names now shown as images
        self.images_missing = images_missing  # @@PLUGINFILE@@ images that could not be kept


def html_to_markdown(source: str, *, fallback_lang: str = "en",
                     images: dict[str, str] | None = None) -> HtmlReading:
    """Moodle HTML -> our Markdown per language. Without multilang spans the text's language is
    guessed: Chinese when it holds CJK characters, else `fallback_lang`. `images` maps the names
    of the field's embedded images (`@@PLUGINFILE@@/name`) to the names they are stored under."""
    source = _MLANG2.sub(lambda m: f'<span lang="{m.group(1)}" class="multilang">'
                                   f"{m.group(2)}</span>", source)
    reader = _ToMarkdown(images or {})
    reader.feed(source)
    reader.close()
    langs = [lang for lang in ("en", "zh") if any(seg == lang for seg, _ in reader.out)]
    texts = {}
    # Text outside the spans is every language's, in its place among the spans.
    for lang in langs:
        texts[lang] = _tidy([text for seg, text in reader.out if seg in ("*", lang)])
    if not langs and not reader.other_langs:
        text = _tidy([text for _, text in reader.out])
        if text:
            lang = "zh" if re.search(r"[\u3400-\u9fff]", text) else fallback_lang
            texts[lang] = text
    return HtmlReading({k: v for k, v in texts.items() if v}, reader.dropped, reader.other_langs,
                       reader.images_used, reader.images_missing)
