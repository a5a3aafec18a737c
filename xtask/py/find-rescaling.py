#!/usr/bin/env python3
"""Finds the state rescalings of poseidon/src/params/rescale.rs and prints them as Rust.

For a set with S-box x^a and MDS matrix M, scaling the state by d (u_i = d_i s_i)
turns M into M'_ij = d_i M_ij d_j^-a. We look for a permutation `column` and limb
shifts t_i in {0, 1} with M'_{i, column[i]} = 2^(-29 t_i). Around a cycle
i0 -> column[i0] -> ... of length L the conditions give d_{i0}^(a^L - 1) = c for a
known c, solvable when c is an (a^L - 1)-th power; the other d_i follow along the
cycle. Preference: fewest shifted rows, then the smallest permutation, then the
shifts in descending order. Needs sympy (nthroot_mod). Run from the repository root:
    python3 xtask/py/find-rescaling.py > /tmp/rescale.rs
"""
import itertools
import math
import re

from sympy.ntheory import nthroot_mod

P = 0x40000000000000000000000000000000224698FC094CF91B992D30ED00000001
Q = 0x40000000000000000000000000000000224698FC0994A8DD8C46EB2100000001
SETS = [("kimchi_fp", "Fp", P, 7), ("kimchi_fq", "Fq", Q, 7), ("legacy_fp", "Fp", P, 5), ("legacy_fq", "Fq", Q, 5)]


def mds(name):
    text = open(f"poseidon/src/params/tables/{name}.rs").read()
    start = text.index("pub(crate) const MDS")
    nums = [int(x) for x in re.findall(r'MontFp!\("(\d+)"\)', text[start:text.index("\n];", start)])]
    return [nums[0:3], nums[3:6], nums[6:9]]


def cycles(perm):
    seen, out = set(), []
    for i in range(3):
        cycle, j = [], i
        while j not in seen:
            seen.add(j)
            cycle.append(j)
            j = perm[j]
        if cycle:
            out.append(cycle)
    return out


def target(p, shift):
    return pow(pow(2, 29 * shift, p), -1, p)


def constant(m, p, a, perm, shifts, cycle):
    """c with d_{cycle[0]}^(a^L - 1) = c."""
    acc = 1
    for t, i in enumerate(cycle):
        acc = acc * pow(target(p, shifts[i]) * pow(m[i][perm[i]], -1, p) % p, a**t, p) % p
    return pow(acc, -1, p)


def solve(m, p, a):
    options = sorted(
        itertools.product(itertools.permutations(range(3)), itertools.product((1, 0), repeat=3)),
        key=lambda o: (sum(o[1]), o[0], tuple(-s for s in o[1])),
    )
    for perm, shifts in options:
        ok = True
        for cycle in cycles(perm):
            n = a ** len(cycle) - 1
            if pow(constant(m, p, a, perm, shifts, cycle), (p - 1) // math.gcd(n, p - 1), p) != 1:
                ok = False
        if not ok:
            continue
        d = [0, 0, 0]
        for cycle in cycles(perm):
            n = a ** len(cycle) - 1
            d[cycle[0]] = nthroot_mod(constant(m, p, a, perm, shifts, cycle), n, p)
            for i in reversed(cycle[1:]):  # d_i = 2^(-29 t_i) d_{perm[i]}^a / M_{i, perm[i]}
                d[i] = target(p, shifts[i]) * pow(d[perm[i]], a, p) * pow(m[i][perm[i]], -1, p) % p
        for i in range(3):
            j = perm[i]
            assert d[i] * m[i][j] * pow(pow(d[j], a, p), -1, p) % p == target(p, shifts[i])
        return perm, shifts, d
    raise SystemExit("no rescaling with shifts 0 and 1")


for name, field, p, a in SETS:
    perm, shifts, d = solve(mds(name), p, a)
    title = f"{name.split('_')[0].capitalize()} over {field}"
    print(f"/// {title}.")
    print(f"pub(crate) const {name.upper()}: Rescaling<{field}> = Rescaling {{")
    print(f"    column: [{', '.join(map(str, perm))}],")
    print(f"    limb_shift: [{', '.join(map(str, shifts))}],")
    for key, values in (("d", d), ("d_inv", [pow(x, -1, p) for x in d])):
        print(f"    {key}: [")
        for x in values:
            print(f'        MontFp!("{x}"),')
        print("    ],")
    print("};")
    print()
