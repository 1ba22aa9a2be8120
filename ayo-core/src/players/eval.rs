//! The static evaluation of the alpha-beta player (and of MCTS's optional
//! playout cut-off).
//!
//! The value is the store difference plus weighted features of the rows, all
//! from the point of view of the player to move, in hundredths of a seed
//! ([`crate::players::Value::SEED`]). Whether the features help is measured,
//! not assumed: `docs/strength.md` records matches of the full evaluation
//! against the store difference alone at equal depth.

use crate::{Capture, Player, Position, Rules};

/// The weights of the evaluation features, in hundredths of a seed per unit.
/// Each feature is "mine minus the opponent's" from the mover's point of view.
///
/// ```
/// use ayo_core::{players::{eval, Weights}, Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// let start = Position::start(&rules);
/// // The start is symmetric apart from the move: only the tempo term counts.
/// assert_eq!(eval::evaluate(&start, &rules, &Weights::STORE_ONLY), 0);
/// assert_eq!(eval::evaluate(&start, &rules, &Weights::for_rules(&rules)), Weights::for_rules(&rules).tempo);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Per seed in the own row minus the opponent's row.
    pub row_seeds: i32,
    /// Per non-empty own pit minus the opponent's (a cheap mobility measure).
    pub mobility: i32,
    /// Per opponent pit exposed to capture minus own exposed pits (what counts
    /// as exposed depends on the capture rule; see [`exposed`]).
    pub exposed: i32,
    /// Per own pit holding at least 12 seeds (a lap that comes round) minus the opponent's.
    pub big_pits: i32,
    /// Added for the player to move (having the move is worth something).
    pub tempo: i32,
}

impl Weights {
    /// The store difference alone (the baseline of the measurements).
    pub const STORE_ONLY: Weights = Weights {
        row_seeds: 0,
        mobility: 0,
        exposed: 0,
        big_pits: 0,
        tempo: 0,
    };

    /// The measured default weights for a rule set (see `docs/strength.md`).
    pub fn for_rules(rules: &Rules) -> Weights {
        match rules.capture() {
            // 2-or-3 captures (olopon, oware): seeds kept on one's own side feed
            // one's own captures and are one's own at a move-limit or
            // repetition end; pits with 1 or 2 seeds are capture targets.
            Capture::TwoThree => Weights {
                row_seeds: 10,
                mobility: 15,
                exposed: 25,
                big_pits: 30,
                tempo: 20,
            },
            // Relay sowing (ayoayo's capture across, ayo's collect on 4):
            // exposed pits and big pits measured no better than nothing
            // (relays reach far), so only the row, mobility and tempo terms count.
            Capture::Across | Capture::CollectFour => Weights {
                row_seeds: 5,
                mobility: 20,
                exposed: 0,
                big_pits: 0,
                tempo: 20,
            },
        }
    }
}

/// Pits of `player`'s row exposed to a capture by the opponent under the rules'
/// capture kind: holding 1 or 2 seeds (2-or-3 captures, one more makes 2 or 3),
/// holding seeds while the facing opponent pit is empty (capture across), or
/// holding 3 (collect on 4: the next seed dropped in collects it).
///
/// ```
/// use ayo_core::{players::eval::exposed, Player, Position, Rules, Setup};
/// let rules = Rules::preset("oware").unwrap();
/// let mut s = Setup::start(&rules);
/// s.board = [1, 2, 3, 0, 4, 4, 4, 4, 4, 4, 4, 14];
/// assert_eq!(exposed(&Position::from_setup(&rules, &s).unwrap(), &rules, Player::South), 2);
/// ```
pub fn exposed(pos: &Position, rules: &Rules, player: Player) -> i32 {
    let b = pos.board();
    let first = player.first_pit();
    let mut n = 0;
    for i in first..first + 6 {
        let s = b[i];
        n += i32::from(match rules.capture() {
            Capture::TwoThree => s == 1 || s == 2,
            Capture::Across => s > 0 && b[11 - i] == 0,
            Capture::CollectFour => s == 3,
        });
    }
    n
}

/// The evaluation of `pos` for the player to move, in hundredths of a seed.
pub fn evaluate(pos: &Position, rules: &Rules, w: &Weights) -> i32 {
    let me = pos.to_move();
    let them = me.opponent();
    let stores = pos.margin(me);
    let mut v = stores * super::Value::SEED;
    if *w == Weights::STORE_ONLY {
        return v;
    }
    let b = pos.board();
    let (mut rows, mut mob, mut big) = ([0i32; 2], [0i32; 2], [0i32; 2]);
    for (i, &s) in b.iter().enumerate() {
        let p = i / 6;
        rows[p] += i32::from(s);
        mob[p] += i32::from(s > 0);
        big[p] += i32::from(s >= 12);
    }
    let (m, t) = (me.index(), them.index());
    v += w.row_seeds * (rows[m] - rows[t]);
    v += w.mobility * (mob[m] - mob[t]);
    v += w.big_pits * (big[m] - big[t]);
    if w.exposed != 0 {
        v += w.exposed * (exposed(pos, rules, them) - exposed(pos, rules, me));
    }
    v + w.tempo
}
