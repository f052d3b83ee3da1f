"""Pure rules for Game Night's card games: no I/O, no clock, no global random."""
