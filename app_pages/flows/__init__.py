"""The session flows the learner pages run, without Streamlit (testable as plain Python).

- `question_session`: one question on screen, from opening it (a generated variant is built once)
  to graded tries, the reveal, recording and the draft that survives a reload;
- `practice`: filters, picking the next question, a run through questions, the Practice URL;
- `exercises`: every compute template as a generated question, share links, number formats.

Learner state (the store, ratings, review, interviews) stays in `tutor`.
"""
