"""The content layer: what players and designers write and what the game is played with, read and
checked (the card index and catalogue, card search and worth, the abilities' catalogue, nationalities,
unit ids, rule sets), and the board's line of sight, which `minis.board` builds its table from.

Beside it, at the top of `minis`, sit the modules of the same layer that outside code imports by
name: hexgrid, terrain, board, cards, army and the mapfile package. This layer imports those and
`minis.base`, never the engine or anything above (tests/test_layers.py). Nothing is re-exported here.
"""
