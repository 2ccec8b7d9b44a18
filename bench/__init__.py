"""The load benchmark (`bench/run.py`); a package only so tests can import its report code."""
