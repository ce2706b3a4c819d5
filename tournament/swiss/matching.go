package swiss

// A maximum-weight matching on a general graph by Edmonds' blossom
// algorithm with dual variables (the primal-dual method, O(n³)), written
// after Galil's survey "Efficient algorithms for finding maximum matching
// in graphs" (1986), in its maximum-cardinality form: among the matchings
// of the largest size, one of the greatest weight: the pairing's way to
// pair everyone it can and, among those pairings, the cheapest.
//
// Weights are integers; the duals stay integers because slacks are
// computed against twice the weight.

// edge joins vertices i and j with weight w.
type edge struct {
	i, j int
	w    int64
}

// matcher holds one run's state. Endpoints: edge k has endpoints 2k (its
// i) and 2k+1 (its j); endpoint p's vertex is endpoint[p], and p^1 is the
// other end of the same edge.
type matcher struct {
	edges    []edge
	n        int    // vertices; blossoms are numbered n..2n-1
	endpoint []int  // endpoint p → its vertex
	adj      [][]nb // per vertex, its edges: the remote endpoint, its vertex, the weight
	mate     []int  // vertex → the remote endpoint of its matched edge, or -1

	label, labelend []int // per vertex or blossom: 0 none, 1 S, 2 T (5 a breadcrumb)
	inblossom       []int // vertex → its top-level blossom
	parent          []int // blossom → its parent, or -1
	childs          [][]int
	base            []int
	endps           [][]int
	bestedge        []int
	bestslack       []int64 // bestedge's slack when bestgen is gen
	bestgen         []int
	gen             int // counts the changes of the duals
	bestedges       [][]int
	unused          []int
	dual            []int64
	allowed         []bool
	queue           []int
}

// nb is an edge seen from one end: p the remote endpoint, to its vertex.
type nb struct {
	p, to int
	w     int64
}

// maxWeightMatching returns mate: mate[v] is v's partner or -1.
func maxWeightMatching(n int, edges []edge) []int {
	if n == 0 {
		return nil
	}
	m := &matcher{edges: edges, n: n}
	var maxw int64
	for _, e := range edges {
		maxw = max(maxw, e.w)
	}
	m.endpoint = make([]int, 2*len(edges))
	degree := make([]int, n)
	for _, e := range edges {
		degree[e.i]++
		degree[e.j]++
	}
	m.adj = make([][]nb, n)
	for v := range n {
		m.adj[v] = make([]nb, 0, degree[v])
	}
	for k, e := range edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		m.adj[e.i] = append(m.adj[e.i], nb{2*k + 1, e.j, e.w})
		m.adj[e.j] = append(m.adj[e.j], nb{2 * k, e.i, e.w})
	}
	m.mate = filled(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	m.parent = filled(2*n, -1)
	m.childs = make([][]int, 2*n)
	m.base = filled(2*n, -1)
	m.endps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.bestslack = make([]int64, 2*n)
	m.bestgen = make([]int, 2*n)
	m.gen = 1
	m.bestedges = make([][]int, 2*n)
	m.dual = make([]int64, 2*n)
	m.allowed = make([]bool, len(edges))
	for v := range n {
		m.inblossom[v] = v
		m.base[v] = v
		m.dual[v] = maxw
		m.unused = append(m.unused, n+v)
	}
	// A head start: with every dual at maxw the edges of weight maxw are
	// tight, and matching some of them greedily leaves the state a stage
	// would (matched edges tight, all free vertices' duals equal), with
	// fewer stages to run: in a Swiss round most players' ideal games are
	// such edges.
	for k, e := range edges {
		if e.w == maxw && m.mate[e.i] == -1 && m.mate[e.j] == -1 {
			m.mate[e.i], m.mate[e.j] = 2*k+1, 2*k
		}
	}
	for range n {
		if !m.stage() {
			break
		}
		// End of a stage: expand S-blossoms whose dual is zero.
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expand(b, true)
			}
		}
	}
	out := make([]int, n)
	for v := range n {
		out[v] = -1
		if m.mate[v] >= 0 {
			out[v] = m.endpoint[m.mate[v]]
		}
	}
	return out
}

func filled(n, x int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = x
	}
	return s
}

// mod is Python's index into a slice of length l for a possibly negative j.
func mod(j, l int) int { return ((j % l) + l) % l }

func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.i] + m.dual[e.j] - 2*e.w
}

// leaves appends the vertices in blossom b to out.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, t := range m.childs[b] {
		out = m.leaves(t, out)
	}
	return out
}

// assign labels w's top-level blossom t (1 S, 2 T), reached through
// endpoint p; a T-blossom's mate becomes an S-blossom.
func (m *matcher) assign(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
		return
	}
	base := m.base[b]
	mp := m.mate[base]
	m.assign(m.endpoint[mp], 1, mp^1)
}

// scan traces back from v and w to find a new blossom's base, or -1 when
// the paths reach two single vertices (an augmenting path).
func (m *matcher) scan(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// add makes a new blossom with the given base through edge k.
func (m *matcher) add(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb := m.inblossom[base]
	bv, bw := m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.childs[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = 0
	for _, v := range m.leaves(b, nil) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	}
	bestto := filled(2*m.n, -1)
	for _, bv := range path {
		var lists [][]int
		if m.bestedges[bv] == nil {
			for _, v := range m.leaves(bv, nil) {
				ks := make([]int, len(m.adj[v]))
				for i, a := range m.adj[v] {
					ks[i] = a.p / 2
				}
				lists = append(lists, ks)
			}
		} else {
			lists = [][]int{m.bestedges[bv]}
		}
		for _, list := range lists {
			for _, k := range list {
				i, j := m.edges[k].i, m.edges[k].j
				if m.inblossom[j] == b {
					i, j = j, i
				}
				_ = i
				bj := m.inblossom[j]
				if bj != b && m.label[bj] == 1 && (bestto[bj] == -1 || m.slack(k) < m.slack(bestto[bj])) {
					bestto[bj] = k
				}
			}
		}
		m.bestedges[bv] = nil
		m.bestedge[bv] = -1
	}
	var best []int
	for _, k := range bestto {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.bestedges[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if s := m.slack(k); m.bestedge[b] == -1 || s < m.bestSlack(b) {
			m.setBest(b, k, s)
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// expand undoes blossom b; at a stage's end its zero-dual sub-blossoms
// too, else a T-blossom's children are relabelled along its path.
func (m *matcher) expand(b int, endstage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endstage && m.dual[s] == 0:
			m.expand(s, endstage)
		default:
			for _, v := range m.leaves(s, nil) {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		childs, endps := m.childs[b], m.endps[b]
		l := len(childs)
		entry := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := index(childs, entry)
		jstep, trick := -1, 1
		if j&1 != 0 {
			j -= l
			jstep, trick = 1, 0
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[endps[mod(j-trick, l)]^trick^1]] = 0
			m.assign(m.endpoint[p^1], 2, p)
			m.allowed[endps[mod(j-trick, l)]/2] = true
			j += jstep
			p = endps[mod(j-trick, l)] ^ trick
			m.allowed[p/2] = true
			j += jstep
		}
		bv := childs[mod(j, l)]
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for childs[mod(j, l)] != entry {
			bv := childs[mod(j, l)]
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			for _, x := range m.leaves(bv, nil) {
				v = x
				if m.label[x] != 0 {
					break
				}
			}
			if v >= 0 && m.label[v] != 0 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.base[bv]]]] = 0
				m.assign(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.childs[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.bestedges[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

func index(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// augmentBlossom swaps matched and unmatched edges along the even path
// through blossom b from vertex v to its base; v becomes the base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.childs[b], m.endps[b]
	l := len(childs)
	i := index(childs, t)
	j := i
	jstep, trick := -1, 1
	if i&1 != 0 {
		j -= l
		jstep, trick = 1, 0
	}
	for j != 0 {
		j += jstep
		t = childs[mod(j, l)]
		p := endps[mod(j-trick, l)] ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = childs[mod(j, l)]
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.childs[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	m.endps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

// augment swaps the matching along the augmenting path through edge k.
func (m *matcher) augment(k int) {
	e := m.edges[k]
	for _, sp := range [2][2]int{{e.i, 2*k + 1}, {e.j, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}
