"""Feed the Kraken for 5–11 players: the rules engine (game name ``kraken``).

Rules: ``shared/spec/kraken.md``. Split by concept: ``board`` (both charts), ``cards``
(navigation deck, rituals), ``roles`` (factions, role table, thresholds), ``voyage`` (shared state
and the round's agenda of steps), ``mutiny`` (appointing, mutinies), ``navigation`` (navigation,
moving, map and card actions, off duty), ``rituals`` (the cult), ``characters`` (the character
table, dealing, windows) and ``abilities`` (what each character does), ``game`` (setup, legal
actions, views, results, registration).

Decisions the spec leaves open, taken as the rules intend:

Flow and timing
- "Any time" characters may be used in every phase except while mutiny fists are being chosen
  and during a navigation (from the draw to the reveal, emergency appointments included), and
  never while another player must answer a prompt (a peek, the Instigator, the Spiritualist).
- Windows open in this order: before the team is appointed (at every start of a round, also
  after a successful mutiny or the Chief cook), after the appointment, right after a mutiny's
  reveal, before the first draw of a navigation (not before emergency redraws), and, for the
  Spiritualist, at the end of a round whose revealed card was yellow (after the off-duty signs).
  A window opens only to seats whose character could do something then. Everyone sees that a
  window is open; nobody but the seat itself sees whom it waits for.
- The Consultant, Minstrel, Agitator and Equalizer act on the next appointment or mutiny even if
  the Chief cook restarts the round in between. The Smuggler and Archivist name a player: if the
  Bosun then moves that player off the draw, the effect lapses; both last one navigation and do
  not carry over to an emergency redraw.

Appointing and mutiny
- Off duty is ignored altogether when fewer than two on-duty players could serve. With one other
  player on board the captain chooses whether they are lieutenant or navigator; the missing
  office is played by the cards at random (a random kept card, a random steered card).
- A mutineer with no guns is recorded as raising 0 without being asked. Raised guns leave their
  owner's stock at the reveal (a Kleptomaniac cannot steal them) and come back if it fails.
- Tongueless mutineers' guns count towards the total but they are no candidates; if no candidate
  is left the mutiny fails. Candidates tied at the most (even at 0) go to the tie-break.
- The Troublemaker doubles a raise for the total and the captaincy; the Peacemaker's target gets
  the guns back at once. The Master strategist and Troublemaker need a player who raised guns.
  A revealed Gunsmith (a lasting status) whose card a Mentor turned down again stays a Gunsmith.
- The Instigator chooses a mutineer who still holds guns (themselves allowed); the answer is a
  ``mutiny`` action raising all their guns, or ``decline``. A refused card is face down again
  but cannot be used again in the same window.

Navigation
- After a jump the emergency navigation is drawn anew: captain and lieutenant draw two cards
  each again. If nobody can be emergency navigator, the cards choose at random.
- An empty draw pile met by a telescope, the Look-out, the Smuggler or the Archivist is first
  refilled by shuffling in the discard pile. The mermaid shows all discards if fewer than three.
- A drunk captain with nobody able to take over stays captain; the Chief cook is only offered when
  someone could take over. Off-duty signs go to the offices of the navigation that succeeded
  (after a drunk card the old captain keeps the captain's sign with 9–11 players); an eliminated
  player loses their sign. The supply line refills players on board, before the map action.
- A cabin search shows the exact faction code (``cult_leader`` or ``cultist``). Flogging draws
  one of the two other faction cards (sailor, pirate, cult) at random.

The cult
- With the cult leader eliminated (jumped overboard) rituals have no effect; everyone still
  closes and opens their eyes. Conversion needs a convertible player, else nothing happens.
- The gun stash is exactly 3 guns to players on board (repeats allowed). The cult cabin search
  shows the navigation's captain, lieutenant and navigator (not the leader themselves).
- A convert's old allies are not told: pirates keep believing a converted pirate is a pirate.
  The leader learns the convert is a cultist.
- If the ship enters the goal of a faction with no members left (every pirate converted),
  nobody wins: ``winners`` is empty and every score is 0.

Characters
- Eliminated players cannot use or be the target of characters. The Mentor targets a used
  character of a player on board (the Captain card is not a character). The Consultant is not
  offered to the captain and may name themselves lieutenant. The Herbalist moves a sign from its
  holder to a player on board without one. The Debt collector's payer pays the captain,
  lieutenant and navigator in that order while guns last. The Spiritualist picks two players who
  hold a gun, then, with ``pick``, who receives each gun (anyone on board but its giver).
- The Look-out answers its peek like a telescope (``telescope`` with ``choice``); the Archivist's
  chosen player may ``redraw`` once, before keeping a card.

Setup and views
- ``deck`` stacks the top of the draw pile (top first); the board's other cards are shuffled
  below it. ``rituals`` (an extra option) stacks the ritual pile the same way.
- ``dealt_characters`` names each seat's card; "captain" in it marks the first captain, who then
  draws a fresh card at random. Without it the first captain is ``captain`` or random.
  ``captain`` with a random deal swaps the Captain card to that seat.
- ``known`` is keyed by seat numbers as strings so that views survive JSON unchanged.
- Actions beyond the spec's list: ``redraw`` (Archivist). The emergency navigator is named with
  ``appoint`` giving only ``navigator``; the Consultant's lieutenant with only ``lieutenant``.
"""

from __future__ import annotations

from .game import KRAKEN, KrakenState

__all__ = ["KRAKEN", "KrakenState"]
