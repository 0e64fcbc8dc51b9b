"""The cpwords version, at the bottom floor: workers and checkpoints compare it without importing the API."""

__version__ = "0.1.0"
