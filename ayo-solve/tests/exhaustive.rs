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

use std::collections::HashMap;

use ayo_core::{Player, Position, Rules, Setup, StuckSeeds};
use ayo_solve::index::rank;
use ayo_solve::Database;

type State = ([u8; 12], Player);

fn boards(n: usize) -> Vec<[u8; 12]> {
    fn rec(i: usize, left: u8, b: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if i == 11 {
            b[11] = left;
            out.push(*b);
            return;
        }
        for s in 0..=left {
            b[i] = s;
            rec(i + 1, left - s, b, out);
        }
    }
    let mut out = Vec::new();
    rec(0, n as u8, &mut [0; 12], &mut out);
    out
}

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

/// South's margin of every state with up to `max` seeds, and whether it was
/// scored by the convention.
fn reference(rules: &Rules, max: usize) -> HashMap<State, (i32, bool)> {
    let mut done: HashMap<State, (i32, bool)> = HashMap::new();
    for n in 0..=max {
        let states: Vec<State> = boards(n)
            .into_iter()
            .flat_map(|b| [(b, Player::South), (b, Player::North)])
            .collect();
        let index: HashMap<State, usize> =
            states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        // For each state: the best fixed option for its mover (South's margin)
        // or the stuck value, and its successors inside the layer.
        let mut fixed: Vec<Option<i32>> = vec![None; states.len()];
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
                    let v = gain + done[&cs].0;
                    fixed[i] = Some(match (fixed[i], p) {
                        (None, _) => v,
                        (Some(f), Player::South) => f.max(v),
                        (Some(f), Player::North) => f.min(v),
                    });
                }
            }
        }
        let solve = |start: i32| -> Vec<i32> {
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
        let least = solve(-(n as i32));
        let greatest = solve(n as i32);
        for (i, &s) in states.iter().enumerate() {
            let (l, g) = (least[i], greatest[i]);
            let v = if l == g {
                (l, false)
            } else {
                let (south, north) = rows(&s.0);
                let split = south - north; // South's own side minus North's
                (split.clamp(l, g), true)
            };
            done.insert(s, v);
        }
    }
    done
}

fn check(rules: &Rules, max: usize) {
    let db = Database::build(rules, max, None, true).unwrap().0;
    let reference = reference(rules, max);
    let mut flagged = 0;
    for ((board, p), (v, cycle)) in &reference {
        // The database holds the mover's value with the mover turned South.
        let (norm, mover_value) = match p {
            Player::South => (*board, *v),
            Player::North => {
                let mut b = *board;
                b.rotate_left(6);
                (b, -*v)
            }
        };
        let layer = &db.layers()[ayo_solve::seeds(&norm)];
        let r = rank(&norm);
        assert_eq!(
            (i32::from(layer.value(r)), layer.cycle(r)),
            (mover_value, *cycle),
            "board {board:?}, {p} to move"
        );
        flagged += usize::from(*cycle);
    }
    eprintln!(
        "{}: {} states up to {max} seeds agree, {flagged} cycle-scored",
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
        check(&over.parse().unwrap(), 7);
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
