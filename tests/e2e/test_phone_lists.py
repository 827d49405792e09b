"""All questions on a phone (found looking at the 390 x 844 screenshots, issue 16): a long title
wraps inside its row instead of running off the screen's right edge."""

PHONE = {"width": 390, "height": 844}


def test_question_titles_stay_on_a_phone_screen(page, goto):
    page.set_viewport_size(PHONE)
    goto("questions", "en")
    links = page.locator('.st-key-question_list [data-testid="stPageLink-NavLink"] p')
    links.first.wait_for()
    for k in range(min(links.count(), 10)):
        box = links.nth(k).bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], (k, box)
        # the whole title is shown: nothing cut off inside the link either
        assert links.nth(k).evaluate("e => e.scrollWidth <= e.clientWidth + 1"), k
