"""minis: the Axis & Allies Miniatures rules as a hex skirmish simulator."""

__version__ = "0.1.0"
