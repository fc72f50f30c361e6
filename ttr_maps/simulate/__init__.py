"""Simulating many games and reporting what a board does."""
