"""The Ruzzle kind's engines: one module per word finder, one function per task."""
