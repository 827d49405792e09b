"""The pages' flows: plain Python (no Streamlit) that only the pages use, next to them.

- `question_session`: one question on screen, from opening it (a generated variant is built once)
  to graded tries, the reveal, recording and the draft that survives a reload;
- `practice`: filters, picking the next question, a run through questions, the Practice URL;
- `exercises`: every compute template as a generated question, share links, number formats;
- `derivation_check`, `explore`, `plain_text`: the derivation checker, the Explore demos, bank
  text as plain text for labels.

Learner state (store, rating, review, interview, transfer) stays in `tutor/`; what is here turns
that state and the bank into what one screen shows, and is tested without a browser.
"""
