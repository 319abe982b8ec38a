"""What each game's controller inputs mean, one module per game (named as the game): BINDINGS, interpret, candidates."""
