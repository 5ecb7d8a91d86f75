"""The tournament logic (``bot.tournament``): pairings, standings, crosstable, TRF."""
