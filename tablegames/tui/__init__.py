"""The Textual terminal interface; launch it with `tablegames.tui.app.run_menu` or `run_table`."""
