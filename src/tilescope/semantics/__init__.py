"""What each op computes, as standalone NumPy (numpy, ml_dtypes and the standard library only).

The CPU executor's rules and transpiled modules both use these modules; a transpiled module
carries them whole (see `backends/numpy/transpile/prelude.py`).
"""
