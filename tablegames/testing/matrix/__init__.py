"""The per-game tests: every registered game, or one (`tablegames check GAME`)."""
