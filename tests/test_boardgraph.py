"""The shared board graph (ttr_maps/boardgraph.py): networks and the country rule for shortest paths."""

from ttr_maps.boardgraph import INF, UnionFind, distances


def _adj(n, routes):
    adj = [[] for _ in range(n)]
    for r, (a, b) in enumerate(routes):
        adj[a].append((r, b))
        adj[b].append((r, a))
    return adj


def test_union_find_joins_networks_and_copies_independently():
    uf = UnionFind()
    uf.union("a", "b")
    uf.union("c", "d")
    other = uf.copy()
    other.union("b", "c")
    assert uf.find("a") == uf.find("b") != uf.find("c") == uf.find("d")
    assert other.find("a") == other.find("d")
    assert uf.find("e") == "e"  # a node never joined is its own network


def test_distances_enter_a_country_but_never_pass_through_it():
    # 0 - 1(country) - 2, and a longer way 0 - 3 - 2
    adj = _adj(4, [(0, 1), (1, 2), (0, 3), (3, 2)])
    country = [False, True, False, False]
    cost = [1.0, 1.0, 2.0, 2.0]
    assert distances(adj, country, cost, [0]) == [0.0, 1.0, 4.0, 2.0]
    # from the country itself, paths start there
    assert distances(adj, country, cost, [1]) == [1.0, 0.0, 1.0, 3.0]
    # a route that cannot be used (INF) is never taken
    assert distances(adj, country, [1.0, 1.0, INF, 2.0], [0])[3] == INF
    # several sources: the nearest counts
    assert distances(adj, country, cost, [0, 2]) == [0.0, 1.0, 0.0, 2.0]
