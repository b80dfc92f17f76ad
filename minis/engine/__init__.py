"""The engine layer's own modules: the battle's terms and set-up, actions and events, the abilities'
seam (ability_api, ability_loader, air_roles), what the front ends ask of a position (queries, odds,
projection) and scenario files, which start a game.

The layer's modules that outside code imports by name stay at the top of `minis`: state, abilities,
dice, game, record, rulestest, and the rules and ability_rules packages. The engine imports those, the
layers below (content, geometry, `minis.base`), never the bots, the lab, the network or the front ends
(tests/test_layers.py). Nothing is re-exported here.
"""
