//! The learned level: a policy/value network trained by self-play
//! (`examples/python/alphazero.py`) inside the guided search
//! ([`crate::guided`]), the most visited move played.
//!
//! Two networks ship inside the library: one trained on `ayoayo` (used for
//! every relay rule set) and one trained on `oware` (every single-lap rule
//! set). They read the environments' observation, so they play any rule set
//! of their family; how strong they are is measured on the ladder
//! (`docs/strength.md`).

use std::sync::{Arc, OnceLock};

use super::network::{Network, INPUTS};
use super::{Agent, Analysis, Basis, Budget, MoveValue, OutOfMemory, Value};
use crate::guided::{GuidedSearch, Gumbel, SearchOptions, Selection, ACTIONS, OBS};
use crate::{Game, LeanGame, Move, Rules};

/// The simulations a move of the learned level runs.
pub const LEVEL_SIMULATIONS: u64 = 64;

const RELAY_NET: &[u8] = include_bytes!("../../nets/ayoayo.ayonet");
const SINGLE_LAP_NET: &[u8] = include_bytes!("../../nets/oware.ayonet");

/// The shipped network for `rules`' family (relay or single lap).
///
/// Both files are read once; a damaged one (which the tests rule out) is
/// an error, not a panic.
pub fn shipped(rules: &Rules) -> Result<Arc<Network>, super::network::NetworkError> {
    static RELAY: OnceLock<Result<Arc<Network>, super::network::NetworkError>> = OnceLock::new();
    static SINGLE: OnceLock<Result<Arc<Network>, super::network::NetworkError>> = OnceLock::new();
    let (cell, bytes) = if rules.relay() {
        (&RELAY, RELAY_NET)
    } else {
        (&SINGLE, SINGLE_LAP_NET)
    };
    cell.get_or_init(|| Network::from_bytes(bytes).map(Arc::new))
        .clone()
}

/// A network inside the guided search (Gumbel, no noise: the same move for
/// the same game), playing the most visited move.
pub struct Learned {
    net: Option<Arc<Network>>,
    simulations: u64,
    seed: u64,
    search: Option<GuidedSearch>,
}

impl Learned {
    /// A player of `net` with `budget`: [`Budget::Nodes`] is the simulations
    /// a move, [`Budget::Depth`] `d` runs `64 · d` of them; a time budget
    /// runs [`LEVEL_SIMULATIONS`]. `None` plays the shipped network of each
    /// game's rules.
    pub fn new(net: Option<Arc<Network>>, budget: Budget, seed: u64) -> Learned {
        let simulations = match budget {
            Budget::Nodes(n) => n.clamp(1, 1 << 20),
            Budget::Depth(d) => u64::from(d.max(1)).saturating_mul(LEVEL_SIMULATIONS),
            Budget::Time(_) => LEVEL_SIMULATIONS,
        };
        Learned {
            net,
            simulations,
            seed,
            search: None,
        }
    }

    fn options(&self) -> SearchOptions {
        SearchOptions {
            simulations: self.simulations,
            selection: Selection::Gumbel(Gumbel {
                gumbel_scale: 0.0,
                ..Gumbel::default()
            }),
            seed: self.seed,
            ..SearchOptions::new(self.simulations)
        }
    }

    /// The search's result for `game` (not over); `None` when the search
    /// cannot be made (its memory) or the network cannot be read.
    fn search(&mut self, game: &Game) -> Option<crate::guided::SearchResult> {
        let net = match &self.net {
            Some(n) => Arc::clone(n),
            None => shipped(game.rules()).ok()?,
        };
        if self.search.is_none() {
            self.search = Some(GuidedSearch::new(self.options()).ok()?);
        }
        let search = self.search.as_mut()?;
        search.start(&[LeanGame::from_game(game)]).ok()?;
        let results = search
            .run(|obs, _mask, logits, values| {
                for (k, row) in obs.chunks_exact(OBS).enumerate() {
                    let mut x = [0.0f32; INPUTS];
                    x.copy_from_slice(row);
                    let (l, v) = net.evaluate(&x);
                    logits[k * ACTIONS..(k + 1) * ACTIONS].copy_from_slice(&l);
                    values[k] = v;
                }
            })
            .ok()?;
        results.first().copied()
    }
}

/// An expected outcome in `[-1, 1]` as a [`Value`] (hundredths: `+1.00` is a
/// sure win), not a seed difference.
fn outcome_value(v: f32) -> Value {
    Value((v.clamp(-1.0, 1.0) * 100.0).round() as i32)
}

impl Agent for Learned {
    fn name(&self) -> String {
        format!("learned(simulations={})", self.simulations)
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let legal = game.legal_moves();
        let first = *legal.first()?;
        let Some(r) = self.search(game) else {
            return Some(first);
        };
        Some(
            legal
                .iter()
                .copied()
                .find(|m| m.action() == r.action)
                .unwrap_or(first),
        )
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        if let Some(a) = Analysis::of_ended(game) {
            return a;
        }
        let basis = Basis::Estimate {
            simulations: self.simulations,
        };
        let legal = game.legal_moves().to_vec();
        let r = self.search(game);
        let moves: Vec<MoveValue> = legal
            .iter()
            .map(|&mv| MoveValue {
                mv,
                value: outcome_value(r.map_or(0.0, |r| r.q[usize::from(mv.action())])),
                basis,
            })
            .collect();
        let best = r
            .and_then(|r| legal.iter().copied().find(|m| m.action() == r.action))
            .or(legal.first().copied());
        // The position's value is its best move's, as for every player.
        let value = moves
            .iter()
            .find(|m| Some(m.mv) == best)
            .map_or(Value(0), |m| m.value);
        Analysis {
            best,
            value,
            basis,
            pv: best.into_iter().collect(),
            moves,
            depth: 1,
            nodes: self.simulations,
        }
    }

    fn prepare(&mut self, _rules: &Rules) -> Result<(), OutOfMemory> {
        if self.search.is_none() {
            self.search = GuidedSearch::new(self.options()).ok();
        }
        match self.search.as_mut() {
            Some(s) => s.prepare(1).map_err(|_| OutOfMemory {
                bytes: self.simulations.saturating_mul(6 * 64),
                what: "a learned player's search tree",
            }),
            None => Err(OutOfMemory {
                bytes: self.simulations.saturating_mul(6 * 64),
                what: "a learned player's search tree",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_networks_read() {
        for preset in ["ayoayo", "ayo", "olopon", "oware"] {
            let rules = Rules::preset(preset).unwrap();
            let net = shipped(&rules).unwrap();
            assert!(net.parameters() > 0);
        }
    }

    #[test]
    fn learned_players_play_legal_moves_to_the_end() {
        for preset in ["ayoayo", "ayo", "olopon", "oware"] {
            let mut game = Game::new(Rules::preset(preset).unwrap());
            let mut p = Learned::new(None, Budget::Nodes(16), 1);
            p.prepare(game.rules()).unwrap();
            let mut plies = 0;
            while game.outcome().is_none() && plies < 400 {
                let mv = p.choose(&game).unwrap();
                assert!(game.is_legal(mv));
                game.play(mv).unwrap();
                plies += 1;
            }
            let a = p.analyze(&game);
            if game.outcome().is_none() {
                assert!(a.best.is_some());
            }
        }
    }

    #[test]
    fn the_same_game_gets_the_same_move() {
        let game = Game::new(Rules::preset("oware").unwrap());
        let mut a = Learned::new(None, Budget::Nodes(32), 1);
        let mut b = Learned::new(None, Budget::Nodes(32), 9);
        assert_eq!(a.choose(&game), b.choose(&game));
        let an = a.analyze(&game);
        assert_eq!(an.moves.len(), game.legal_moves().len());
        assert!(an.value.0.abs() <= 100);
    }
}
