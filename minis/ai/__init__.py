"""Bots that play a `Game` through its public interface (decider, legal actions, apply)."""
