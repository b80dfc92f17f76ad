"""Play over a network: a game server that holds the battles and referees them (docs/network.md).

`protocol`: the JSON messages and how a side's projection travels; `store`: the battles in SQLite;
`server`: the asyncio server; `client`: a connection that keeps its seat; `bot`: the computer as a client.
The engine never imports this package, and this package never imports the window.
"""
