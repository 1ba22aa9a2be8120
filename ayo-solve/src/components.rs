//! The strongly connected components of one layer's capture-free move
//! graph: boards of `n` seeds (South to move), an edge for every move that
//! captures nothing (the child keeps the `n` seeds, its mover turned South).
//!
//! Play can come back to a board only inside its component, which is what
//! the repetition search ([`crate::repetition`]) asks: a position of the
//! window since the last capture can repeat later only if it shares the
//! component of the current one.

use ayo_core::Rules;

use crate::db::{try_filled, try_reserve, try_vec, DbError};
use crate::index::{layer_size, rank, BoardWalker};
use crate::{child_view, seeds, south_position};

/// The component of every board of layer `n`, by rank (Tarjan's algorithm,
/// iterative: the paths without captures run deep). Component numbers are
/// in reverse topological order: a move leads to a component numbered no
/// higher. [`DbError::OutOfMemory`] when the graph does not fit.
///
/// ```
/// use ayo_core::Rules;
/// use ayo_solve::{child_view, components::components, index::rank, south_position};
/// let rules = Rules::preset("oware")?;
/// let c = components(&rules, 2)?;
/// let of = |b: &[u8; 12]| c[rank(b) as usize];
/// // South's seeds in pits 1 and 5, North's row empty: South must feed, and
/// // the two seeds then chase each other round the board for ever, one in
/// // each row. Play never comes back to the first board.
/// let start = [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
/// let children = south_position(&start).children(&rules);
/// assert_eq!(children.len(), 1);
/// let (_, next) = child_view(&children[0].1);
/// assert_ne!(of(&start), of(&next));
/// assert!(c.iter().filter(|&&k| k == of(&next)).count() > 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn components(rules: &Rules, n: usize) -> Result<Vec<u32>, DbError> {
    let size = layer_size(n) as usize;
    let what = format!("the capture-free move graph of layer {n}");
    let mut offs: Vec<u32> = try_vec(size + 1, &what)?;
    let mut edges: Vec<u32> = try_vec(size * 2, &what)?;
    offs.push(0);
    let mut walker = BoardWalker::new(n, 0);
    for _ in 0..size {
        for (_, child) in south_position(walker.board()).children(rules) {
            let (_, nb) = child_view(&child);
            if seeds(&nb) == n {
                if edges.len() == edges.capacity() {
                    let more = edges.len();
                    try_reserve(&mut edges, more, &what)?;
                }
                edges.push(rank(&nb) as u32);
            }
        }
        offs.push(edges.len() as u32);
        walker.advance();
    }
    let mut t = Tarjan {
        offs,
        edges,
        index: try_filled(size, NONE, &what)?,
        low: try_filled(size, 0, &what)?,
        comp: try_filled(size, NONE, &what)?,
        stack: Vec::new(),
        calls: Vec::new(),
        next_index: 0,
        next_comp: 0,
    };
    for root in 0..size as u32 {
        if t.index[root as usize] == NONE {
            t.component_of(root);
        }
    }
    Ok(t.comp)
}

/// No index or component yet.
const NONE: u32 = u32::MAX;

/// The state of Tarjan's algorithm over the graph `offs`/`edges`.
struct Tarjan {
    offs: Vec<u32>,
    edges: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    /// Boards visited and not yet in a component.
    stack: Vec<u32>,
    /// (board, its next edge to look at): the recursion, kept on the heap.
    calls: Vec<(u32, u32)>,
    next_index: u32,
    next_comp: u32,
}

impl Tarjan {
    fn enter(&mut self, v: u32) {
        self.index[v as usize] = self.next_index;
        self.low[v as usize] = self.next_index;
        self.next_index += 1;
        self.stack.push(v);
        self.calls.push((v, self.offs[v as usize]));
    }

    /// Every component reachable from `root`, which has not been visited.
    fn component_of(&mut self, root: u32) {
        self.enter(root);
        while let Some(&(v, e)) = self.calls.last() {
            let vi = v as usize;
            if e < self.offs[vi + 1] {
                self.calls.last_mut().expect("a call").1 += 1;
                let w = self.edges[e as usize];
                let wi = w as usize;
                if self.index[wi] == NONE {
                    self.enter(w);
                } else if self.comp[wi] == NONE {
                    // Still stacked: in the component being formed.
                    self.low[vi] = self.low[vi].min(self.index[wi]);
                }
                continue;
            }
            self.calls.pop();
            if let Some(&(u, _)) = self.calls.last() {
                let ui = u as usize;
                self.low[ui] = self.low[ui].min(self.low[vi]);
            }
            if self.low[vi] == self.index[vi] {
                loop {
                    let w = self
                        .stack
                        .pop()
                        .expect("the component's boards are stacked");
                    self.comp[w as usize] = self.next_comp;
                    if w == v {
                        break;
                    }
                }
                self.next_comp += 1;
            }
        }
    }
}
