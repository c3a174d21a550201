"""Import cycles between tablegames' modules, counted with and without the imports under
`if TYPE_CHECKING:` (grimp's graph, as `lint-imports` reads it; imports inside functions
count). `.importlinter`'s acyclic contract fails on any; this says how many and where.

    .venv/bin/python -m bench.import_cycles

Another tree (a commit checked out elsewhere): `PYTHONPATH=/that/tree` in front.
"""

from __future__ import annotations

import grimp


def cyclic_groups(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, following = work[-1]
            step = next(following, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(imports.get(step, ())))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def main() -> None:
    for left_out, title in ((False, "TYPE_CHECKING imports counted"), (True, "run time only")):
        graph = grimp.build_graph(
            "tablegames", exclude_type_checking_imports=left_out, cache_dir=None
        )
        imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
        groups = cyclic_groups(imports)
        pairs = sorted(
            (a, b) for a in imports for b in imports[a] if a < b and a in imports.get(b, ())
        )
        print(f"{title}: {len(groups)} cyclic groups, {len(pairs)} pairs importing each other")
        for group in groups:
            print("  group:", ", ".join(group))
        for a, b in pairs:
            print(f"  pair: {a} <-> {b}")
        # Between the children of each package (as the acyclic contract checks: a package
        # counts as all its modules), the fewest imports whose removal leaves no cycle.
        packages = sorted(m for m in graph.modules if len(graph.find_children(m)) > 1)
        breakers = {p: graph.nominate_cycle_breakers(p) for p in packages}
        breakers = {p: found for p, found in breakers.items() if found}
        print(f"  between siblings: {sum(map(len, breakers.values()))} imports to remove")
        for package, found in breakers.items():
            for importer, imported in sorted(found):
                print(f"    in {package}: {importer} -> {imported}")


if __name__ == "__main__":
    main()
