"""The balance lab: many seeded bot games, stored in a database, and the estimates drawn from them."""
