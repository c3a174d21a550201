"""Widgets shared by every game screen: cards, hands, seat panels and the game log."""
