package store

import (
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
)

// fullStore is a store of games, players and the lobby: every store of
// this package.
type fullStore interface {
	games.Store
	games.DueGames
	games.TurnStore
	players.Store
	lobby.Store
}

// services are the games service on a store and the players who hold its
// seats.
type services struct {
	*games.Service
	players *players.Service
}

func newServices(st fullStore) services {
	pl := players.New(st)
	return services{games.New(st, pl), pl}
}
