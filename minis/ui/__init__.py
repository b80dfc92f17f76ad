"""The python-arcade 3 front end. Nothing outside `minis.ui` (and `minis.commands.play`) imports it.

Importing this package does not import arcade: `minis.ui.boot.import_arcade` must choose between a
real window and arcade's headless mode first, because arcade reads that choice once, at import.
"""
