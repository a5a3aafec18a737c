//! o1js's Merkle tree out of circuit: the same roots and witnesses as o1js's
//! `MerkleTree` (and this repository's JavaScript package), over Pasta Fp with the
//! kimchi hash.
//!
//! A tree of height `h` has levels 0 (the leaves, 2^(h−1) of them) to `h − 1` (the
//! root); a node is `hash([left, right])`; a node with no leaf set below it is the
//! root of an empty subtree, [`zero`] of its level (0 at the leaves). The tree keeps
//! the nodes over the leaves set, which start at index 0 (o1js's `fill`), so it
//! holds about twice as many nodes as leaves, whatever its height.
//!
//! [`MerkleTree::from_leaves`] builds level by level, each level one
//! [`crate::hash_many_par`] call: on every core natively (feature `parallel`), in
//! SIMD lanes everywhere.

use std::sync::OnceLock;

use crate::{Error, Fp, ParamSet};

/// The greatest height (o1js's `MerkleMap` is a tree of height 256).
pub const MAX_HEIGHT: usize = 256;

fn node_hash(left: Fp, right: Fp) -> Fp {
    crate::hash(ParamSet::Kimchi, &[left, right])
}

/// The parent of `node` and its `sibling`, `node` being the left child or the right.
fn parent(node: Fp, sibling: Fp, node_is_left: bool) -> Fp {
    if node_is_left {
        node_hash(node, sibling)
    } else {
        node_hash(sibling, node)
    }
}

/// The root of an empty subtree whose leaves are `level` levels below it (o1js's
/// `zeroes[level]`): 0 at level 0, `hash([z, z])` of the level below above it.
pub fn zero(level: usize) -> Fp {
    static ZEROS: OnceLock<Vec<Fp>> = OnceLock::new();
    let zeros = ZEROS.get_or_init(|| {
        let mut z = vec![Fp::from(0u64)];
        for l in 1..MAX_HEIGHT {
            z.push(node_hash(z[l - 1], z[l - 1]));
        }
        z
    });
    zeros[level]
}

/// One step of a witness: whether the path's node is the left child, and its sibling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The node on the path is a left child (its index is even).
    pub is_left: bool,
    /// The other child of the same parent.
    pub sibling: Fp,
}

/// A Merkle tree as o1js's `MerkleTree(height)`, its leaves set from index 0 on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleTree {
    height: usize,
    /// `levels[l]`: the nodes of level `l` from index 0 to the last one with a leaf
    /// set below it; the nodes after it are `zero(l)`. `levels[height − 1]` is the
    /// root (or empty: an empty tree).
    levels: Vec<Vec<Fp>>,
}

fn check_height(height: usize) -> Result<(), Error> {
    if (1..=MAX_HEIGHT).contains(&height) {
        Ok(())
    } else {
        Err(Error::MerkleHeight(height))
    }
}

/// 2^(height − 1) leaves, or `None` above `u64`'s range (such a tree still takes
/// every index a `u64` can name).
fn leaf_capacity(height: usize) -> Option<u64> {
    1u64.checked_shl(height as u32 - 1)
}

impl MerkleTree {
    /// A tree of `height` levels (1 to 256) with every leaf 0.
    pub fn new(height: usize) -> Result<Self, Error> {
        check_height(height)?;
        Ok(MerkleTree {
            height,
            levels: vec![Vec::new(); height],
        })
    }

    /// A tree of `height` levels with leaves `0..leaves.len()` set from `leaves`
    /// (o1js's `fill`), built level by level, each level hashed on every core
    /// ([`crate::hash_many_par`]).
    ///
    /// ```
    /// use poseidon::{merkle::MerkleTree, Fp};
    /// let leaves: Vec<Fp> = (0..5u64).map(Fp::from).collect();
    /// let tree = MerkleTree::from_leaves(4, &leaves)?;
    /// let w = tree.witness(3)?;
    /// assert_eq!(poseidon::merkle::root_of_path(leaves[3], &w), tree.root());
    /// # Ok::<(), poseidon::Error>(())
    /// ```
    pub fn from_leaves(height: usize, leaves: &[Fp]) -> Result<Self, Error> {
        check_height(height)?;
        if leaf_capacity(height).is_some_and(|c| leaves.len() as u64 > c) {
            return Err(Error::MerkleTooManyLeaves {
                leaves: leaves.len(),
                height,
            });
        }
        let mut levels = Vec::with_capacity(height);
        levels.push(leaves.to_vec());
        for level in 1..height {
            let below: &Vec<Fp> = &levels[level - 1];
            let z = zero(level - 1);
            let pairs: Vec<[Fp; 2]> = below
                .chunks(2)
                .map(|c| [c[0], c.get(1).copied().unwrap_or(z)])
                .collect();
            levels.push(crate::hash_many_par(ParamSet::Kimchi, &pairs));
        }
        Ok(MerkleTree { height, levels })
    }

    /// The tree's height: its number of levels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The root.
    pub fn root(&self) -> Fp {
        self.node(self.height - 1, 0)
    }

    /// The node at `index` of `level` (0: the leaves); 0 and the zero subtrees'
    /// roots where nothing was set.
    pub fn node(&self, level: usize, index: u64) -> Fp {
        let nodes = &self.levels[level];
        usize::try_from(index)
            .ok()
            .and_then(|i| nodes.get(i).copied())
            .unwrap_or_else(|| zero(level))
    }

    fn check_index(&self, index: u64) -> Result<(), Error> {
        match leaf_capacity(self.height) {
            Some(c) if index >= c => Err(Error::MerkleIndex {
                index,
                height: self.height,
            }),
            _ => Ok(()),
        }
    }

    /// The path from leaf `index` to the root, as o1js's `getWitness`: from the leaf
    /// up, `height − 1` steps.
    pub fn witness(&self, index: u64) -> Result<Vec<PathStep>, Error> {
        self.check_index(index)?;
        let mut i = index;
        Ok((0..self.height - 1)
            .map(|level| {
                let is_left = i & 1 == 0;
                let step = PathStep {
                    is_left,
                    sibling: self.node(level, i ^ 1),
                };
                i >>= 1;
                step
            })
            .collect())
    }

    /// The number of leaves set (from index 0 on).
    pub fn leaves_set(&self) -> usize {
        self.levels[0].len()
    }

    /// Sets leaf `index` to `leaf` and rehashes its path (o1js's `setLeaf`): a leaf
    /// already set, or the next one (`index == leaves_set()`). The tree keeps its
    /// leaves contiguous from 0, so that its memory follows the leaves set, never
    /// the height; a leaf further on is an error.
    pub fn set_leaf(&mut self, index: u64, leaf: Fp) -> Result<(), Error> {
        self.check_index(index)?;
        let set = self.leaves_set();
        let mut i = usize::try_from(index)
            .ok()
            .filter(|i| *i <= set)
            .ok_or(Error::MerkleGap { index, set })?;
        let mut x = leaf;
        for level in 0..self.height {
            let nodes = &mut self.levels[level];
            if nodes.len() <= i {
                nodes.resize(i + 1, zero(level));
            }
            nodes[i] = x;
            if level + 1 < self.height {
                let sibling = nodes.get(i ^ 1).copied().unwrap_or_else(|| zero(level));
                x = parent(x, sibling, i & 1 == 0);
                i >>= 1;
            }
        }
        Ok(())
    }
}

/// The root that `path` leads to from `leaf` (o1js's `MerkleWitness.calculateRoot`).
pub fn root_of_path(leaf: Fp, path: &[PathStep]) -> Fp {
    path.iter()
        .fold(leaf, |x, s| parent(x, s.sibling, s.is_left))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root by the definition: every node of every level hashed, one at a time.
    fn naive_root(height: usize, leaves: &[Fp]) -> Fp {
        let mut level: Vec<Fp> = (0..1usize << (height - 1))
            .map(|i| leaves.get(i).copied().unwrap_or(Fp::from(0u64)))
            .collect();
        while level.len() > 1 {
            level = level.chunks(2).map(|c| node_hash(c[0], c[1])).collect();
        }
        level[0]
    }

    #[test]
    fn small_trees_match_the_definition_and_their_witnesses_lead_to_the_root() {
        for height in 1..=6 {
            let cap = 1usize << (height - 1);
            for n in [0, 1, cap / 2, cap.saturating_sub(1), cap] {
                let leaves: Vec<Fp> = (0..n as u64).map(|i| Fp::from(1000 + 7 * i)).collect();
                let t = MerkleTree::from_leaves(height, &leaves).unwrap();
                assert_eq!(
                    t.root(),
                    naive_root(height, &leaves),
                    "height {height}, {n} leaves"
                );
                for i in 0..cap as u64 {
                    let w = t.witness(i).unwrap();
                    assert_eq!(w.len(), height - 1);
                    assert_eq!(root_of_path(t.node(0, i), &w), t.root());
                }
                // Built by setting leaves one by one: the same tree.
                let mut s = MerkleTree::new(height).unwrap();
                for (i, x) in leaves.iter().enumerate() {
                    s.set_leaf(i as u64, *x).unwrap();
                }
                assert_eq!(s.root(), t.root());
            }
        }
    }

    #[test]
    fn empty_subtrees_are_the_zero_roots() {
        assert_eq!(zero(0), Fp::from(0u64));
        assert_eq!(zero(1), node_hash(Fp::from(0u64), Fp::from(0u64)));
        assert_eq!(MerkleTree::new(33).unwrap().root(), zero(32));
        assert_eq!(MerkleTree::new(1).unwrap().root(), Fp::from(0u64));
    }

    #[test]
    fn bad_heights_indices_and_sizes_are_rejected() {
        assert_eq!(MerkleTree::new(0), Err(Error::MerkleHeight(0)));
        assert_eq!(MerkleTree::new(257), Err(Error::MerkleHeight(257)));
        assert!(MerkleTree::new(256).is_ok());
        let t = MerkleTree::new(3).unwrap();
        assert_eq!(
            t.witness(4),
            Err(Error::MerkleIndex {
                index: 4,
                height: 3
            })
        );
        assert!(t.witness(3).is_ok());
        assert_eq!(
            MerkleTree::from_leaves(2, &[Fp::from(1u64); 3]),
            Err(Error::MerkleTooManyLeaves {
                leaves: 3,
                height: 2
            })
        );
        // A tree of height 256: any u64 index is in it; leaves are set in order.
        let mut big = MerkleTree::new(256).unwrap();
        assert_eq!(big.witness(u64::MAX).unwrap().len(), 255);
        assert_eq!(
            big.set_leaf(5, Fp::from(9u64)),
            Err(Error::MerkleGap { index: 5, set: 0 })
        );
        for i in 0..6 {
            big.set_leaf(i, Fp::from(9 + i)).unwrap();
        }
        big.set_leaf(2, Fp::from(1u64)).unwrap();
        let w = big.witness(5).unwrap();
        assert_eq!(root_of_path(Fp::from(14u64), &w), big.root());
        let leaves: Vec<Fp> = [9u64, 10, 1, 12, 13, 14].map(Fp::from).to_vec();
        assert_eq!(MerkleTree::from_leaves(256, &leaves).unwrap(), big);
    }
}
