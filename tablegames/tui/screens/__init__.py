"""The app's screens: menu, setup, hand-off, one screen per game, help and dialogs."""
