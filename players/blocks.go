package players

import "context"

// BlockQuery says whether one of two players blocks the other
// (relations.BlockList).
type BlockQuery interface {
	Blocks(ctx context.Context, a, b string) (bool, error)
}

// WithBlocks makes Blocks answer from q; without it no one blocks anyone.
func WithBlocks(q BlockQuery) Option { return func(s *Service) { s.blocks = q } }

// Blocks reports whether the player of id a blocks the player of id b,
// or b blocks a: then neither may challenge the other, and the lobby does
// not pair them (the services that keep them apart ask here, or the
// relations' BlockList they are given).
func (s *Service) Blocks(ctx context.Context, a, b string) (bool, error) {
	if s.blocks == nil {
		return false, nil
	}
	return s.blocks.Blocks(ctx, a, b)
}
