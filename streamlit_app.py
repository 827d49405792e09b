import streamlit as st

st.title("Residual Tutor")
