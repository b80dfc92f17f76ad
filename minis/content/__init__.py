"""The content layer: what a battle is fought on and with, read and checked. Here: the card index and
catalogue, card search and worth, the abilities' catalogue, nationalities, unit ids, rule sets, and
the line of sight that `minis.board` builds its table from.

The layer's modules that outside code imports by name stay at the top of `minis`: board, cards, army
and the mapfile package. The layer imports those, the geometry (hexgrid, terrain) and `minis.base`;
never the engine or anything above it (tests/test_layers.py). Nothing is re-exported here.
"""
