"""Balance checks (B): how the board's numbers compare with its cards, trains and the official boards."""
