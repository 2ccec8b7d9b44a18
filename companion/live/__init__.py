"""Delivery: a committed change rendered for each screen (broadcast.py, its delta pieces built as
strings in fragments.py) and sent through the channel layer (layers.py)."""
