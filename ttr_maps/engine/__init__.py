"""The reference engine: every edition's rules as data."""
