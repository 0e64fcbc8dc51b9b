"""cpwords: a constraint-programming solver suite for word puzzles."""
