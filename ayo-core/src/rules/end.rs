//! The end of the game, in the rules' order: a store at the target, then the
//! move limit or a repeated position, then a player to move with no legal
//! move ([`end_reason`]); and the final scores ([`Position::final_outcome`]).

use crate::rules::lap_board::Count;
use crate::rules::outcome::{EndReason, Outcome};
use crate::rules::position::Position;
use crate::rules::{Rules, StuckSeeds};
use crate::Player;

/// Why the game is over at `pos`, if it is, checked in the rules' order:
/// the target and the move limit (only when `counters_may_end`, which the
/// caller sets when stores changed, by a capture or a new game, or the rules
/// have a move limit: [`counters_may_end`]), a repetition (`repeated`: false when the rules
/// have no repetition rule), then no legal move (`no_legal_move`, asked
/// last). The two questions are closures so that each caller answers them
/// from what it keeps (a history, a window, the children it has sown) and
/// only when the earlier ends did not apply.
///
/// The one arrival: [`crate::Game`], [`crate::LeanGame`], the playouts,
/// alpha-beta and MCTS all ask it (the repetition answered by
/// [`crate::rules::repeat`], the last question by the moves sown or by
/// [`crate::rules::legal::no_legal_move_unsown`]); the batch step in lanes
/// decides the same ends lane by lane and leaves every lane that ends to
/// the scalar step.
#[inline(always)]
pub(crate) fn end_reason(
    rules: &Rules,
    pos: &Position,
    counters_may_end: bool,
    repeated: impl FnOnce() -> bool,
    no_legal_move: impl FnOnce() -> bool,
) -> Option<EndReason> {
    if counters_may_end {
        if let Some(reason) = pos.ended_by_counters(rules) {
            return Some(reason);
        }
    }
    if repeated() {
        return Some(EndReason::Repetition);
    }
    if no_legal_move() {
        return Some(EndReason::NoLegalMove);
    }
    None
}

/// Whether the target or the move limit can have ended the game at a new
/// position: stores change only with a capture (or in a new game), the
/// no-capture counter with every move.
#[inline(always)]
pub(crate) fn counters_may_end(rules: &Rules, stores_changed: bool) -> bool {
    stores_changed || rules.move_limit().is_some()
}

/// Whether a store holding `seeds` has reached the target `target` (as
/// `u16` in the scalar code, as bytes in the lanes: `episode/lanes.rs`).
#[inline(always)]
pub(crate) fn reaches_target<N: Count>(seeds: N, target: N) -> bool {
    seeds >= target
}

/// Whether `no_capture` moves without a capture reach the move limit `limit`.
#[inline(always)]
pub(crate) fn reaches_move_limit(no_capture: u16, limit: u16) -> bool {
    no_capture >= limit
}

impl Position {
    /// The end by target or move limit, if any (checked first, in that order).
    #[inline]
    pub(crate) fn ended_by_counters(&self, rules: &Rules) -> Option<EndReason> {
        if let Some(t) = rules.target() {
            let s = self.stores();
            if reaches_target(u16::from(s[0]), t) || reaches_target(u16::from(s[1]), t) {
                return Some(EndReason::Target);
            }
        }
        if let Some(limit) = rules.move_limit() {
            if reaches_move_limit(self.no_capture(), limit) {
                return Some(EndReason::MoveLimit);
            }
        }
        None
    }

    /// The outcome, if the game is over here: by the target, the move limit
    /// or no legal move. Repetition is not seen from a lone position (see
    /// [`crate::Game::outcome`]).
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        let reason = end_reason(
            rules,
            self,
            true,
            || false,
            || self.children(rules).is_empty(),
        )?;
        Some(self.final_outcome(rules, reason))
    }

    /// Scores and winner when the game ends here for `reason`: the seeds left
    /// on the board go to the stores as the rules say (after the move limit
    /// or a repetition each player takes their own row; a player with no
    /// legal move leaves them to the opponent or to each row's owner, by the
    /// stuck-seeds rule; nobody takes them after a target win).
    pub fn final_outcome(&self, rules: &Rules, reason: EndReason) -> Outcome {
        let mut scores = [
            u16::from(self.store(Player::South)),
            u16::from(self.store(Player::North)),
        ];
        let rows = [
            self.row_seeds(Player::South) as u16,
            self.row_seeds(Player::North) as u16,
        ];
        match reason {
            EndReason::Target => {}
            EndReason::MoveLimit | EndReason::Repetition => {
                scores[0] += rows[0];
                scores[1] += rows[1];
            }
            EndReason::NoLegalMove => match rules.stuck_seeds() {
                StuckSeeds::OwnSide => {
                    scores[0] += rows[0];
                    scores[1] += rows[1];
                }
                StuckSeeds::ToOpponent => {
                    scores[self.to_move().opponent().index()] += rows[0] + rows[1];
                }
            },
        }
        Outcome::from_scores(scores, reason)
    }
}
