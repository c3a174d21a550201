"""The games that come bundled with tablegames, each declared in a module of its own as any game's
package declares itself: its engine, options, bots, screen, talk and how the checks play it,
as import strings (knowing a game imports none of them). pyproject.toml's entry points (the
group ``tablegames.games``) register them; nothing here lists them."""
