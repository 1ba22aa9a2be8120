//! Small layers against an independent exhaustive computation.
//!
//! The reference works on absolute states (board, player to move) — no
//! ranking, no normalisation, no Gauss–Seidel — with South's margin as the
//! value: Jacobi iteration of the minimax equations from "endless play is
//! South's worst" (least fixpoint) and from "endless play is South's best"
//! (greatest fixpoint) over every state of the layer, lower layers fixed.
//! Where the two agree the value does not depend on endless play; where they
//! differ the convention scores the state by the mover's row minus the
//! opponent's, clamped between what each side can force.
//!
//! The bounds through every layer are two more such iterations per layer:
//! South's margin with endless play South's worst everywhere, reading the
//! lower layers at that same scoring, and with it South's best. The
//! database's mover-relative `(lo, hi)` is the first and the second for South
//! to move, and the second and the first negated for North.

use std::collections::HashMap;

use ayo_core::{Player, Position, Rules, Setup, StuckSeeds};
use ayo_solve::index::rank;
use ayo_solve::Database;

use crate::common::boards;

type State = ([u8; 12], Player);

fn position(board: [u8; 12], to_move: Player) -> Position {
    Position::from_setup_unchecked(&Setup {
        board,
        stores: [0, 0],
        to_move,
        no_capture: 0,
        ply: 0,
    })
}

fn rows(b: &[u8; 12]) -> (i32, i32) {
    (
        b[..6].iter().map(|&x| i32::from(x)).sum(),
        b[6..].iter().map(|&x| i32::from(x)).sum(),
    )
}

/// What the reference finds for one state, South's margin throughout.
#[derive(Clone, Copy, Debug)]
struct Found {
    /// The convention's value.
    value: i32,
    /// Scored by the convention (the layer's own bounds differ).
    cycle: bool,
    /// Endless play South's worst in every layer.
    south_worst: i32,
    /// Endless play South's best in every layer.
    south_best: i32,
}

/// Every state with up to `max` seeds.
fn reference(rules: &Rules, max: usize) -> HashMap<State, Found> {
    let mut done: HashMap<State, Found> = HashMap::new();
    for n in 0..=max {
        let states: Vec<State> = boards(n)
            .into_iter()
            .flat_map(|b| [(b, Player::South), (b, Player::North)])
            .collect();
        let index: HashMap<State, usize> =
            states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        // For each state: the best capturing option for its mover (South's
        // margin) with the lower layers read at the convention, at South's
        // worst and at South's best; or the stuck value; and its successors
        // inside the layer.
        let mut fixed: [Vec<Option<i32>>; 3] = std::array::from_fn(|_| vec![None; states.len()]);
        let mut terminal: Vec<Option<i32>> = vec![None; states.len()];
        let mut inner: Vec<Vec<usize>> = vec![Vec::new(); states.len()];
        for (i, &(b, p)) in states.iter().enumerate() {
            let pos = position(b, p);
            let children = pos.children(rules);
            if children.is_empty() {
                let (s, nn) = rows(&b);
                terminal[i] = Some(match rules.stuck_seeds() {
                    StuckSeeds::OwnSide => s - nn,
                    StuckSeeds::ToOpponent if p == Player::South => -(n as i32),
                    StuckSeeds::ToOpponent => n as i32,
                });
                continue;
            }
            for (_, c) in &children {
                let st = c.stores();
                let gain = i32::from(st[0]) - i32::from(st[1]);
                let cs: State = (c.board(), c.to_move());
                if c.board_seeds() as usize == n {
                    inner[i].push(index[&cs]);
                } else {
                    let f = done[&cs];
                    for (k, lower) in [f.value, f.south_worst, f.south_best]
                        .into_iter()
                        .enumerate()
                    {
                        let v = gain + lower;
                        fixed[k][i] = Some(match (fixed[k][i], p) {
                            (None, _) => v,
                            (Some(f), Player::South) => f.max(v),
                            (Some(f), Player::North) => f.min(v),
                        });
                    }
                }
            }
        }
        let solve = |fixed: &[Option<i32>], start: i32| -> Vec<i32> {
            let mut u = vec![start; states.len()];
            loop {
                let next: Vec<i32> = (0..states.len())
                    .map(|i| {
                        if let Some(t) = terminal[i] {
                            return t;
                        }
                        let opts = fixed[i].into_iter().chain(inner[i].iter().map(|&c| u[c]));
                        let v = if states[i].1 == Player::South {
                            opts.max()
                        } else {
                            opts.min()
                        };
                        v.expect("a state with moves has options")
                    })
                    .collect();
                if next == u {
                    return u;
                }
                u = next;
            }
        };
        let n = n as i32;
        let least = solve(&fixed[0], -n);
        let greatest = solve(&fixed[0], n);
        let south_worst = solve(&fixed[1], -n);
        let south_best = solve(&fixed[2], n);
        for (i, &s) in states.iter().enumerate() {
            let (l, g) = (least[i], greatest[i]);
            let (value, cycle) = if l == g {
                (l, false)
            } else {
                let (south, north) = rows(&s.0);
                let split = south - north; // South's own side minus North's
                (split.clamp(l, g), true)
            };
            let found = Found {
                value,
                cycle,
                south_worst: south_worst[i],
                south_best: south_best[i],
            };
            done.insert(s, found);
        }
    }
    done
}

fn check(rules: &Rules, max: usize) {
    let db = Database::build(rules, max, None, true).unwrap().0;
    let reference = reference(rules, max);
    let (mut flagged, mut open) = (0, 0);
    for ((board, p), f) in &reference {
        // The database holds the mover's value with the mover turned South.
        let (norm, mover_value, bounds) = match p {
            Player::South => (*board, f.value, (f.south_worst, f.south_best)),
            Player::North => {
                let mut b = *board;
                b.rotate_left(6);
                (b, -f.value, (-f.south_best, -f.south_worst))
            }
        };
        let layer = &db.layers()[ayo_solve::seeds(&norm)];
        let r = rank(&norm);
        let (lo, hi) = layer.bounds(r);
        assert_eq!(
            (i32::from(layer.value(r)), layer.cycle(r)),
            (mover_value, f.cycle),
            "board {board:?}, {p} to move"
        );
        assert_eq!(
            (i32::from(lo), i32::from(hi)),
            bounds,
            "bounds of board {board:?}, {p} to move"
        );
        assert!(bounds.0 <= mover_value && mover_value <= bounds.1);
        assert_eq!(layer.open(r), bounds.0 < bounds.1);
        flagged += usize::from(f.cycle);
        open += usize::from(bounds.0 < bounds.1);
    }
    eprintln!(
        "{}: {} states up to {max} seeds agree, {flagged} cycle-scored, {open} convention-dependent",
        rules,
        reference.len()
    );
}

#[test]
fn ayoayo_layers_match_exhaustive_search() {
    check(&Rules::preset("ayoayo").unwrap(), 8);
}

#[test]
fn variants_match_exhaustive_search() {
    for over in [
        "ayoayo[capturing_seed_taken=false]",
        "ayoayo[stuck_seeds=own_side]",
    ] {
        check(&over.parse().unwrap(), 8);
    }
}

#[test]
fn other_rule_structures_match_exhaustive_search() {
    // A single-lap and a collect-four rule set without counters: the method is general.
    for over in [
        "oware[repetition=off]",
        "ayo[move_limit=none,fours_to=pit_owner]",
    ] {
        check(&over.parse().unwrap(), 6);
    }
}
