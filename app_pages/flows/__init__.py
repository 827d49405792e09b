"""The pages' flows: plain Python (no Streamlit) that only the pages use, next to them.

Learner state (store, rating, review, interview, transfer) stays in `tutor/`; what is here turns
that state and the bank into what one screen shows, and is tested without a browser.
"""
