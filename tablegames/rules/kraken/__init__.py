"""Feed the Kraken for 5–11 players: the rules engine (game name ``kraken``).

Rules: ``rules/texts/kraken.md``, what players read (``tablegames rules kraken``). They follow
the project's spec ("the spec" below), made from the seed, the original rule text; neither is in
this repository.

Split by concept: ``board`` (both charts), ``cards`` (navigation deck, rituals), ``roles``
(factions, role table, thresholds), ``voyage`` (shared state and the round's agenda of steps),
``mutiny`` (appointing, mutinies), ``navigation`` (navigation, moving, map and card actions, off
duty), ``rituals`` (the cult), ``characters`` (the character table, dealing, windows) and
``abilities`` (what each character does), ``game`` (setup, legal actions, views, results),
``secrets`` (what each seat must not know: `State.secrets`). It is declared in
``tablegames/bundled/kraken.py``.

Decisions the spec leaves open, taken as the rules intend. Each names the seed sentence it
follows (seed ``003_9304bed3fd4041b7``, Persian, quoted with a translation) or the
silence it fills. What the spec settles is not repeated here.

How this table reads the seed (the rules text tells players so)
- The characters come from the published game (Funtails, 2022): their names, what each does and
  when, and the deal (the Captain card and players−1 others). The seed gives every player one
  face down, «هر بازیکن یک کارت شخصیت دارد که رو به پایین جلویش میماند» ("every player has a
  character card lying face down in front of them"), usable «هر زمان بخواهید ... البته بعضی
  کارتها زمانبندی مشخصی دارند» ("whenever you like ... though some cards have their own timing"),
  and only sums up their effects: «اثرها کوچک ولی تعیینکنندهاند: گرفتن یا دادن تفنگ، نگاه کردن
  به کارت بعدی، جابهجا کردن ستوان و ناوبر، آسانتر یا سختتر کردن یک شورش» ("the effects are small
  but decisive: taking or giving guns, looking at the next card, swapping the lieutenant and the
  navigator, making a mutiny easier or harder"). Every character of ``characters.CHARACTERS`` is
  one of those kinds; ``characters=False`` plays without them.
- Who may talk, and when: ``silence`` (the navigation, eyes closed, no tongue, off the ship).
- Only a mutineer who raised a gun that counts may take command; if none did (only tongueless
  players raised guns, or the Peacemaker sent the others' back), the mutiny fails: nobody takes
  command and every gun goes back. Seed: «اگر شورش موفق شود، هر که بیشترین تفنگ را رو کرده
  کاپیتان جدید میشود» ("if the mutiny succeeds, whoever revealed the most guns becomes the new
  captain") and «بریدن زبان: بازیکن دیگر نمیتواند حرف بزند و کاپیتان هم نمیشود» ("off with the
  tongue: the player can no longer talk, and does not become captain either"). A player who
  opens an empty fist has not objected to the team («همه جز کاپیتان میتوانند به تیم انتخابشده
  اعتراض کنند», "everyone but the captain may object to the chosen team"), so among those who
  may take command nobody revealed "the most guns"; the tongueless player's guns count towards
  the total (the spec) but do not carry a bystander into command. (Before rules version 3 the
  captain then picked a new captain among the empty fists.)
- The captain picks another player, never themself, for the mermaid and the telescope, as for
  every pick (the spec: "the captain picks another player"). Seed: «پری دریایی: کاپیتان یک نفر
  را انتخاب میکند تا سه کارت آخرِ دورریخته را بُر بزند و پنهانی ببیند؛ آن بازیکن میتواند راست یا
  دروغ بگوید» ("mermaid: the captain chooses someone to shuffle the last three discarded cards
  and see them in secret; that player may tell the truth or lie") and «تلسکوپ: کاپیتان یک نفر را
  انتخاب میکند تا کارت روی دستهٔ ناوبری را ببیند» ("telescope: the captain chooses someone to see
  the top card of the navigation deck"): the words of the cabin search («کاپیتان یک نفر را انتخاب
  میکند و پنهانی گروهش را میبیند», "the captain chooses someone and secretly sees their group"),
  where the one chosen is someone else, and the one who looks is "that player", whose word the
  table then weighs.

Flow and timing
- "Any time" characters may be used in every phase except while mutiny fists are being chosen
  and during a navigation (from the draw to the reveal, emergency appointments included), and
  never while another player must answer a prompt (a peek, the Instigator, the Spiritualist).
  Seed: «هر زمان بخواهید میتوانید آن را رو کنید و از اثرش استفاده کنید» ("you may reveal it and
  use it whenever you like"), but fists are filled «پنهانی» ("in secret") and «در طول ناوبری
  فقط تیم سهنفره حق انتخاب دارد» ("during a navigation only the team of three has a choice").
- Windows open in this order: before the team is appointed (at every start of a round, also
  after a successful mutiny or the Chief cook), after the appointment, right after a mutiny's
  reveal, before the first draw of a navigation (not before emergency redraws), and, for the
  Spiritualist, at the end of a round whose revealed card was yellow (after the off-duty signs).
  Everyone sees that a window is open; nobody but the seat itself sees whom it waits for.
  Silence: the seed only says «بعضی کارتها زمانبندی مشخصی دارند» ("some cards have their own
  timing") and that the cards lie «رو به پایین» ("face down"); the spec names the windows, not
  their order, their repeats or who may see whom they wait for.
- The Consultant, Minstrel, Agitator and Equalizer act on the next appointment or mutiny even if
  the Chief cook restarts the round in between. The Smuggler and Archivist name a player: if the
  Bosun then moves that player off the draw, the effect lapses; both last one navigation and do
  not carry over to an emergency redraw. Silence: neither the seed nor the spec's table says
  how long an effect waits or whom it follows.

Appointing and mutiny
- Off duty is ignored altogether (not sign by sign) when fewer than two on-duty players could
  serve. With one other player on board the captain chooses whether they are lieutenant or
  navigator (the spec has the cards fill the missing office at random: a random kept card, a
  random steered card). Silence: the seed's captain always names «یک نفر را ستوان و نفر دیگری را
  ناوبر» ("one player lieutenant and another navigator").
- A mutineer with no guns is recorded as raising 0 without being asked. Raised guns leave their
  owner's stock at the reveal (a Kleptomaniac cannot steal them) and come back if it fails.
  Seed: «اگر شورش نشود یا کمتعداد باشد، همه تفنگهایشان را پس میگیرند» ("if the mutiny fails,
  everyone takes their guns back"); where the guns lie meanwhile is a silence.
- Candidates tied at the most go to the tie-break. Seed: «در تساوی، کاپیتان فعلی یکی از برابرها
  را کنار میگذارد» ("on a tie the captain sets one of the tied aside"). Who may be a candidate
  is a reading (below).
- The Troublemaker doubles a raise for the total and the captaincy; the Peacemaker's target gets
  the guns back at once. The Master strategist and Troublemaker need a player who raised guns.
  A revealed Gunsmith (a lasting status) whose card a Mentor turned down again stays a Gunsmith.
  Silence: the seed only lists «آسانتر یا سختتر کردن یک شورش» ("making a mutiny easier or
  harder"); the spec's one-line effects leave these cases open.
- The Instigator chooses a mutineer who still holds guns (themselves allowed); the answer is a
  ``mutiny`` action raising all their guns, or ``decline``. A refused card is face down again
  but cannot be used again in the same window. Silence, as above.

Navigation
- After a jump the emergency navigation is drawn anew: captain and lieutenant draw two cards
  each again. Seed: «او از بازی حذف میشود و کاپیتان باید ناوبر اضطراری بگذارد» ("they leave the
  game and the captain must name an emergency navigator"); what happens to the draw is a
  silence, and the jumper's two cards are gone.
- An empty draw pile met by a telescope, the Look-out, the Smuggler or the Archivist is first
  refilled by shuffling in the discard pile (the spec reshuffles only before a navigation). The
  mermaid shows all discards if fewer than three. Silence: the seed's mermaid sees «سه کارت
  آخرِ دورریخته» ("the last three discarded cards") and never runs short.
- A drunk captain with nobody able to take over stays captain; the Chief cook is only offered
  when someone could take over. Seed: «کاپیتانی به بازیکنی میرسد که کمترین کارت رزومه را دارد»
  ("the captaincy goes to the player with the fewest résumé cards"); nobody to take it is a
  silence. An eliminated player loses their off-duty sign (silence).

Searches
- A search's result joins the searcher's ``known`` map as the group it showed: ``sailor``,
  ``pirate`` or ``cult`` (the spec's list of faction codes for ``known`` predates the group;
  ``cult`` is the one value there that is not a faction). The private log line says "{3} is in
  the cult" and carries ``group``. Seed: «پنهانی گروهش را میبیند» ("secretly sees their group"),
  the groups being «هر بازیکن در یکی از سه گروه است» ("every player is in one of three groups")
  with «فرقه (رهبر فرقه و پیروانش)» ("the cult: the cult leader and their followers").
- A group never blurs a rank the seat already knows: a convert who searches their leader still
  knows ``cult_leader``, and the leader whose cult cabin search finds a convert still knows
  ``cultist``. Silence: the seed never has a player search someone they know.

The cult
- With the cult leader eliminated (jumped overboard) rituals have no effect; everyone still
  closes and opens their eyes. Conversion needs a convertible player, else nothing happens.
  Silence: the seed's rituals all need the leader («رهبر فرقه پنهانی ...», "the cult leader
  secretly ..."), and a jumper's faction stays hidden.
- The cult cabin search shows the groups of the revealed navigation's captain, lieutenant and
  navigator, not the leader themselves. Seed: «گروه تیم ناوبری را میبیند» ("sees the group of
  the navigation team"); the leader seeing their own group is a silence.
- A convert's old allies are not told: pirates keep believing a converted pirate is a pirate.
  The leader learns the convert is a cultist (they chose them). Seed: «یک بازیکن را به فرقه
  میآورد» ("brings a player into the cult"), in secret; whom else it tells is a silence.
- If the ship enters the goal of a faction with no members left (every pirate converted),
  nobody wins: ``winners`` is empty and every score is 0. Seed: «همهٔ اعضای یک گروه با هم برنده
  یا بازنده میشوند» ("all members of a group win or lose together"); an empty group is a silence.

Characters
- The Mentor targets a used character of a player on board (the Captain card is not a
  character). The Consultant is not offered to the captain and may name themselves lieutenant.
  The Herbalist moves a sign from its holder to a player on board without one. The Debt
  collector's payer pays the captain, lieutenant and navigator in that order while guns last.
  The Spiritualist picks two players who hold a gun, then, with ``pick``, who receives each gun
  (anyone on board but its giver). Silence: the seed only sums the cards up («گرفتن یا دادن
  تفنگ»: "taking or giving guns"); the spec's one-line effects leave these cases open.
- The Look-out answers its peek like a telescope (``telescope`` with ``choice``); the Archivist's
  chosen player may ``redraw`` once, before keeping a card. Silence (the actions are ours).

Setup and views (the interface: the seed, a table game, is silent on all of it)
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

from .game import KrakenState

__all__ = ["KrakenState"]
