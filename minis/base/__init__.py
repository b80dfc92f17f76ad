"""The base layer: what knows nothing of the game (errors and limits, paths and files, TOML reading,
the shipped data's folders, attrs fields, the fast build's switch, sides, kinds, phrasing).

Its modules import nothing of minis outside `minis.base`, so every other layer may import them
(tests/test_layers.py holds the layers). Nothing is re-exported here: import the modules by name.
"""
