"""Graph checks (G): connectivity, reachability, tickets, decks and route rules."""
