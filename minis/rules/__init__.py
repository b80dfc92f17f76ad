"""The rules of the battle as functions of a `GameState` (docs/engine.md#the-state-machine).

One module per part of the rulebook: `mapinfo` (the board's terrain as the rules read it), `stacking`,
`movement`, `combat`, `defensive_fire`, `transport`, `casualty`, `initiative`, `victory`, `setup`, and
`sequence` (the sequence of play that ties them together as a state machine over decisions and dice).
"""
