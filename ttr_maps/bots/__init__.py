"""Bots that play from a seat's observation."""
