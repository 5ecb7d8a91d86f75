"""The pictures the bot posts (PNG, drawn with Pillow), each sized to be read on a phone.

- :mod:`.board`: a game's board, for servers that chose ``board: image``;
- :mod:`.charts`: a player's rating history (and the frame, sizes and colours charts share);
- :mod:`.analysis_chart`: the advantage through an analysed game;
- :mod:`.crosstable`: a tournament's crosstable;
- :mod:`.fonts`: the one way they find a font.

They draw from values (a :class:`~bot.engine.Game`, ratings, an analysis, a crosstable's text):
no Discord and no database, so any front end can post them.
"""
