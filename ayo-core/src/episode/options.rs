//! The options of an episode, each with the names the front doors accept
//! (`"mover"`, `"seed_difference"`, `"NextStep"`, …) parsed here once.

use std::fmt;
use std::str::FromStr;

use crate::players::{Budget, Kind};
use crate::{Game, Player, Position, Rules, PITS};

/// Whose view an observation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Perspective {
    /// The viewer's own row first (index `i` is their action `i`), then the
    /// other row, the viewer's store and the other store.
    Mover,
    /// South's row, North's row, South's store, North's store.
    Absolute,
}

/// What an agent is rewarded for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reward {
    /// +1 for a win, 0 for a draw, -1 for a loss, when the game ends.
    WinLoss,
    /// Each step, the change in (own store − the other's) over the step; at
    /// the end the final scores count, so an episode's return is the final
    /// margin in seeds.
    SeedDifference,
}

/// What an illegal action does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IllegalAction {
    /// It is refused with the engine's reason; nothing changes.
    Raise,
    /// It ends the episode (terminated) with this reward.
    Penalize(f64),
}

/// How the agent's seat is chosen at each reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatChoice {
    /// Always this seat.
    Fixed(Player),
    /// South in the first episode after seeding, then alternating.
    Alternate,
    /// Drawn from the episode's seeded stream.
    Random,
}

/// Gymnasium's autoreset modes: what follows the step that ends an episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Autoreset {
    /// The next step resets the episode (its action is ignored).
    NextStep,
    /// The same step resets it; the last observation is reported apart.
    SameStep,
    /// The caller resets it; a step before that is an error.
    Disabled,
}

/// Who plays the seat the agent does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// A computer player of [`crate::players`] (random, greedy, a level, …).
    Agent(Kind, Budget),
    /// No opponent: the caller moves for whichever side is to move.
    SelfPlay,
    /// The caller plays the opponent's moves itself between
    /// [`super::Episode::act`] and [`super::Episode::conclude`] (a policy
    /// written in another language, say).
    External,
}

impl Opponent {
    /// The uniformly random opponent.
    pub const RANDOM: Opponent = Opponent::Agent(Kind::Random, Budget::Depth(1));

    /// Whether this opponent reads a full [`Game`] (a searching player):
    /// its episodes then keep one, and the others a [`crate::LeanGame`].
    pub fn needs_game(self) -> bool {
        matches!(self, Opponent::Agent(kind, _) if kind != Kind::Random)
    }
}

/// Every option of an episode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpisodeOptions {
    /// The rules of every game.
    pub rules: Rules,
    /// The other seat's player.
    pub opponent: Opponent,
    /// The agent's seat.
    pub seat: SeatChoice,
    /// The observations' view.
    pub perspective: Perspective,
    /// The rewards.
    pub reward: Reward,
    /// Illegal actions.
    pub illegal: IllegalAction,
    /// Steps per episode before truncation (agent steps; plies in self-play).
    pub max_steps: Option<u32>,
    /// What follows an episode's end.
    pub autoreset: Autoreset,
}

/// Options that cannot make an episode.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionsError {
    /// A name that is not one of the option's values.
    #[error("{option} must be {expected}, not {given:?}")]
    Unknown {
        /// The option.
        option: &'static str,
        /// What was given.
        given: String,
        /// The values accepted.
        expected: &'static str,
    },
    /// A penalty that is not a finite number.
    #[error("illegal_penalty must be finite")]
    Penalty,
    /// A step limit of 0.
    #[error("max_episode_steps must be at least 1 or None, not {0}")]
    MaxSteps(i128),
    /// Rules whose games can end before the agent's first move.
    #[error(
        "these rules can end the game before its second move; the batched environment \
         needs games that reach the agent's first turn"
    )]
    EndsAtOnce,
}

fn unknown(option: &'static str, given: &str, expected: &'static str) -> OptionsError {
    OptionsError::Unknown {
        option,
        given: given.to_owned(),
        expected,
    }
}

impl FromStr for Perspective {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<Self, OptionsError> {
        match s {
            "mover" => Ok(Perspective::Mover),
            "absolute" => Ok(Perspective::Absolute),
            _ => Err(unknown("perspective", s, "\"mover\" or \"absolute\"")),
        }
    }
}

impl FromStr for Reward {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<Self, OptionsError> {
        match s {
            "win_loss" => Ok(Reward::WinLoss),
            "seed_difference" => Ok(Reward::SeedDifference),
            _ => Err(unknown("reward", s, "\"win_loss\" or \"seed_difference\"")),
        }
    }
}

impl FromStr for Autoreset {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<Self, OptionsError> {
        match s {
            "NextStep" => Ok(Autoreset::NextStep),
            "SameStep" => Ok(Autoreset::SameStep),
            "Disabled" => Ok(Autoreset::Disabled),
            _ => Err(unknown(
                "autoreset_mode",
                s,
                "\"NextStep\", \"SameStep\" or \"Disabled\"",
            )),
        }
    }
}

impl FromStr for SeatChoice {
    type Err = OptionsError;
    /// `"0"`, `"1"`, `"alternate"` or `"random"`.
    fn from_str(s: &str) -> Result<Self, OptionsError> {
        match s {
            "0" => Ok(SeatChoice::Fixed(Player::South)),
            "1" => Ok(SeatChoice::Fixed(Player::North)),
            "alternate" => Ok(SeatChoice::Alternate),
            "random" => Ok(SeatChoice::Random),
            _ => Err(unknown(
                "agent_seat",
                s,
                "0, 1, \"alternate\" or \"random\"",
            )),
        }
    }
}

impl IllegalAction {
    /// `"raise"`, or `"penalize"` with `penalty` (which must be finite).
    pub fn parse(name: &str, penalty: f64) -> Result<IllegalAction, OptionsError> {
        match name {
            "raise" => Ok(IllegalAction::Raise),
            "penalize" if penalty.is_finite() => Ok(IllegalAction::Penalize(penalty)),
            "penalize" => Err(OptionsError::Penalty),
            _ => Err(unknown("illegal_action", name, "\"raise\" or \"penalize\"")),
        }
    }

    /// The penalty, when illegal actions are penalized.
    pub fn penalty(self) -> Option<f64> {
        match self {
            IllegalAction::Raise => None,
            IllegalAction::Penalize(p) => Some(p),
        }
    }
}

impl fmt::Display for Perspective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Perspective::Mover => "mover",
            Perspective::Absolute => "absolute",
        })
    }
}

impl EpisodeOptions {
    /// The seeds of `pos` as `viewer` sees them in these options'
    /// perspective (every observation's board).
    #[inline]
    pub fn view_of(&self, pos: &Position, viewer: Player) -> [u8; PITS + 2] {
        match self.perspective {
            Perspective::Absolute => pos.view(Player::South),
            Perspective::Mover => pos.view(viewer),
        }
    }

    /// The defaults for `rules`: the random opponent, the agent South, the
    /// mover's view, win/loss rewards, illegal actions refused, no step
    /// limit, next-step autoreset.
    pub fn new(rules: Rules) -> EpisodeOptions {
        EpisodeOptions {
            rules,
            opponent: Opponent::RANDOM,
            seat: SeatChoice::Fixed(Player::South),
            perspective: Perspective::Mover,
            reward: Reward::WinLoss,
            illegal: IllegalAction::Raise,
            max_steps: None,
            autoreset: Autoreset::NextStep,
        }
    }

    /// A step limit from a caller's integer: at least 1.
    pub fn max_steps_from(m: i128) -> Result<u32, OptionsError> {
        u32::try_from(m)
            .ok()
            .filter(|&m| m >= 1)
            .ok_or(OptionsError::MaxSteps(m))
    }

    /// Whether every episode reaches the agent's first turn: the start and
    /// every position one opening move away are ongoing games (whichever
    /// seat the agent has).
    pub fn check_opening(&self) -> Result<(), OptionsError> {
        let start = Game::new(self.rules);
        let ends = start.outcome().is_some()
            || start.children().iter().any(|&(mv, _)| {
                let mut g = start.clone();
                g.play(mv).is_err() || g.outcome().is_some()
            });
        if ends {
            Err(OptionsError::EndsAtOnce)
        } else {
            Ok(())
        }
    }
}
