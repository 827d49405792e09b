"""As an instructor, in a real browser and in both languages: the Author page's Moodle uploader
speaks the interface's language; a Moodle XML file whose questions embed images is imported, its
notes name what is not kept, it is saved; then, as a learner, the question shows its picture,
served by the app (issue 22).

Each language gets a server of its own (its own instructor folder and database), so the imported
ids are the same in both runs and nothing reaches the other browser tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page, save_screenshot
from tests.e2e.learner_steps import main, open_question, uploader_words
from tests.e2e.server import ROOT, start_server, stop_server, wait_idle, wait_ready

FIXTURE = ROOT / "tests" / "quizbank" / "fixtures" / "moodle" / "embedded_files.xml"
WORDS = {
    "en": {"title": "Moodle XML: export and import", "button": "Choose a file",
           "note": "Moodle XML, up to 20 MB", "imported": "2 questions can be imported.",
           "save": "Save as a new file in my folder", "saved": "Saved {path}.", "hello": "hello.mp3"},
    "zh": {"title": "Moodle XML：导出与导入", "button": "选择文件",
           "note": "Moodle XML 文件，最大 20 MB", "imported": "可以导入 2 道题。",
           "save": "另存为我的文件夹中的新文件", "saved": "已保存 {path}。", "hello": "hello.mp3"},
}


@pytest.fixture
def author_server(tmp_path):
    env = {"TUTOR_DATABASE_URL": f"sqlite:///{tmp_path / 'progress.db'}",
           "TUTOR_BANK_PATHS": str(tmp_path / "my-bank"),
           "TUTOR_CONFIG": str(tmp_path / "no-config.toml")}
    server = start_server(ROOT / "streamlit_app.py", env=env, log_path=tmp_path / "server.log")
    try:
        wait_ready(server)
        yield server, tmp_path / "my-bank"
    finally:
        stop_server(server)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_moodle_import_in_the_interfaces_language_keeps_the_pictures(author_server, browser,
                                                                      lang):
    server, folder = author_server
    words = WORDS[lang]
    page = browser.new_page()
    open_page(page, server.url, "author", lang)
    main(page).get_by_text(words["title"]).click()
    shown = uploader_words(page)
    assert shown == [f'"{words["button"]}"', f'"{words["note"]}"']

    main(page).locator('input[type="file"]').set_input_files(str(FIXTURE))
    main(page).get_by_text(words["imported"]).wait_for(timeout=60_000)
    wait_idle(page)
    notes = main(page).inner_text()
    assert words["hello"] in notes and "down.svg" in notes and "ghost.png" in notes
    save_screenshot(page, f"moodle-import-{lang}")
    main(page).get_by_role("button", name=words["save"]).click()
    saved = folder / "moodle-import.yaml"
    main(page).get_by_text(words["saved"].format(path=saved), exact=True).wait_for(timeout=60_000)
    assert saved.is_file()
    pictures = sorted(p.name for p in (folder / "moodle-import").iterdir())
    assert len(pictures) == 4 and all(Path(p).suffix in {".png", ".jpg", ".gif"}
                                      for p in pictures)

    open_question(page, server.url, "block-diagram-true", lang)
    image = main(page).locator('[data-testid="stImage"] img').first
    image.wait_for(timeout=30_000)
    expect(main(page).get_by_text("Residual block")).to_have_count(1)  # the alt, as caption
    assert image.evaluate("img => img.complete && img.naturalWidth") == 4
    assert "/media/" in image.get_attribute("src")  # served by the app, not from the file
    expect(main(page).locator('[data-testid="stException"]')).to_have_count(0)
    save_screenshot(page, f"moodle-picture-{lang}")

    # An option's picture: drawn above the choices; its label reads the alt text.
    open_question(page, server.url, "greeting", lang)
    expect(main(page).locator('[data-testid="stImage"] img')).to_have_count(2)
    expect(main(page).get_by_role("radio", name="[with skip] A")).to_have_count(1)
    expect(main(page).locator('[data-testid="stException"]')).to_have_count(0)
    page.close()
