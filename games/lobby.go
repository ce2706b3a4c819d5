package games
