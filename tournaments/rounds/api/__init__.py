"""The organisers' token API for rounds, tables and confirming a game: the views
(`rounds`) and the shapes of what they take and answer (`shapes`)."""
