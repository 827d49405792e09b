"""Session flows: plain Python (no Streamlit, not even through what they import) that turns the
bank and the learner's state into what one screen shows, tested without a browser.

- `question_session`: one question on screen, from opening it (a generated variant is built once)
  to graded tries, the reveal, recording and the scratch copy that survives a reload; the same
  session on Practice, Review, Exercises, the Author preview and in the Mock interview;
- `interview`: the mock interview, a timer and a summary around one `QuestionSession` per question;
- `practice`: filters, picking the next question, the `QuestionQueue`, the Practice URL;
- `exercises`: every compute template as a generated question, share links, number formats;
- `derivation_check`, `explore`, `question_list`, `profiles`: the derivation checker, the Explore
  demos, the question list's rows and search, which profile a visit works on.

Learner state (store, rating, review, transfer) is the rest of `tutor/`; the pages and widgets in
`app_pages/` draw a session and send it events.
"""
