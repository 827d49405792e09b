"""Reusable Streamlit pieces for the learner's pages: answer inputs per question type, the
verdict, hints, the profile picker. Each widget takes the question and the language and returns
what the learner entered; none grades or stores anything itself.
"""
