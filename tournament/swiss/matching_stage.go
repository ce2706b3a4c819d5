package swiss

// stage grows alternating trees from the single vertices until it
// augments the matching (true) or no augmenting path remains (false).
func (m *matcher) stage() bool {
	n := m.n
	for i := range m.label {
		m.label[i] = 0
		m.bestedge[i] = -1
	}
	for b := n; b < 2*n; b++ {
		m.bestedges[b] = nil
	}
	for k := range m.allowed {
		m.allowed[k] = false
	}
	m.queue = m.queue[:0]
	for v := range n {
		if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
			m.assign(v, 1, -1)
		}
	}
	for {
		for len(m.queue) > 0 {
			v := m.queue[len(m.queue)-1]
			m.queue = m.queue[:len(m.queue)-1]
			// Scanned in the order of m.adj[v], which holds the weights beside
			// the neighbours: the edges themselves are out of the cache's reach.
			for _, a := range m.adj[v] {
				p, w := a.p, a.to
				k := p / 2
				if m.inblossom[v] == m.inblossom[w] {
					continue
				}
				var kslack int64
				if !m.allowed[k] {
					kslack = m.dual[v] + m.dual[w] - 2*a.w
					if kslack <= 0 {
						m.allowed[k] = true
					}
				}
				switch {
				case m.allowed[k]:
					switch {
					case m.label[m.inblossom[w]] == 0:
						m.assign(w, 2, p^1)
					case m.label[m.inblossom[w]] == 1:
						if base := m.scan(v, w); base >= 0 {
							m.add(base, k)
						} else {
							m.augment(k)
							return true
						}
					case m.label[w] == 0:
						m.label[w] = 2
						m.labelend[w] = p ^ 1
					}
				case m.label[m.inblossom[w]] == 1:
					b := m.inblossom[v]
					if m.bestedge[b] == -1 || kslack < m.bestSlack(b) {
						m.setBest(b, k, kslack)
					}
				case m.label[w] == 0:
					if m.bestedge[w] == -1 || kslack < m.bestSlack(w) {
						m.setBest(w, k, kslack)
					}
				}
			}
		}
		// No augmenting path with the allowed edges: change the duals.
		deltatype, deltaedge, deltablossom := -1, -1, -1
		var delta int64
		for v := range n {
			if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
				if d := m.bestSlack(v); deltatype == -1 || d < delta {
					delta, deltatype, deltaedge = d, 2, m.bestedge[v]
				}
			}
		}
		for b := range 2 * n {
			if m.parent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
				if d := m.bestSlack(b) / 2; deltatype == -1 || d < delta {
					delta, deltatype, deltaedge = d, 3, m.bestedge[b]
				}
			}
		}
		for b := n; b < 2*n; b++ {
			if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (deltatype == -1 || m.dual[b] < delta) {
				delta, deltatype, deltablossom = m.dual[b], 4, b
			}
		}
		if deltatype == -1 {
			deltatype = 1
			delta = max(0, minDual(m.dual[:n]))
		}
		m.gen++
		for v := range n {
			switch m.label[m.inblossom[v]] {
			case 1:
				m.dual[v] -= delta
			case 2:
				m.dual[v] += delta
			}
		}
		for b := n; b < 2*n; b++ {
			if m.base[b] >= 0 && m.parent[b] == -1 {
				switch m.label[b] {
				case 1:
					m.dual[b] += delta
				case 2:
					m.dual[b] -= delta
				}
			}
		}
		switch deltatype {
		case 1:
			return false
		case 2:
			m.allowed[deltaedge] = true
			i, j := m.edges[deltaedge].i, m.edges[deltaedge].j
			if m.label[m.inblossom[i]] == 0 {
				i = j
			}
			m.queue = append(m.queue, i)
		case 3:
			m.allowed[deltaedge] = true
			m.queue = append(m.queue, m.edges[deltaedge].i)
		case 4:
			m.expand(deltablossom, false)
		}
	}
}

// bestSlack is the slack of bestedge[x], computed once between changes
// of the duals: the edges are too many to stay in the cache.
func (m *matcher) bestSlack(x int) int64 {
	if m.bestgen[x] != m.gen {
		m.bestslack[x] = m.slack(m.bestedge[x])
		m.bestgen[x] = m.gen
	}
	return m.bestslack[x]
}

// setBest makes k, whose slack is s, the best edge of x.
func (m *matcher) setBest(x, k int, s int64) {
	m.bestedge[x], m.bestslack[x], m.bestgen[x] = k, s, m.gen
}

func minDual(d []int64) int64 {
	out := d[0]
	for _, x := range d[1:] {
		out = min(out, x)
	}
	return out
}
